package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// requests lists the scripted server's calls as "METHOD escaped-path".
func (s *scriptedServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.calls {
		out = append(out, c.method+" "+c.path)
	}
	return out
}

// count is how many calls had method.
func (s *scriptedServer) count(method string) int {
	n := 0
	for _, r := range s.requests() {
		if strings.HasPrefix(r, method+" ") {
			n++
		}
	}
	return n
}

// withLocation answers status with a Location header and body (none when
// empty). loc may start with "{host}", replaced by the server's own
// address, for an absolute Location.
func withLocation(status int, loc, body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", strings.ReplaceAll(loc, "{host}", "http://"+r.Host))
		if body == "" {
			w.WriteHeader(status)
			return
		}
		writeJSON(w, status, body)
	}
}

const (
	projectsURL = "/rest/1000/projects"
	projectJSON = `{"id":9,"name":"n","description":null,"dateCreated":"2026-11-22T10:00:00Z"}`
)

var wantProject = &Project{ID: "9", Name: "n", DateCreated: TimestampOf("2026-11-22T10:00:00Z")}

// Whatever a careful service answers a create with, Projects.Create returns
// the project, and reads it back with one GET only when the answer lacks
// it.
func TestCreateAnswers(t *testing.T) {
	tests := []struct {
		name     string
		post     func(http.ResponseWriter, *http.Request)
		get      map[string]func(http.ResponseWriter, *http.Request) // escaped path -> answer
		want     *Project
		wantReqs []string
	}{
		{
			name: "full entity: no read-back", post: answer(201, projectJSON),
			want: wantProject, wantReqs: []string{"POST " + projectsURL},
		},
		{
			name: "full entity with an id as a string", post: answer(201, strings.Replace(projectJSON, `"id":9`, `"id":"9"`, 1)),
			want: wantProject, wantReqs: []string{"POST " + projectsURL},
		},
		{
			name: "only a numeric id", post: answer(201, `{"id":9}`),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "only a string id", post: answer(200, `{"id":"9"}`),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "no body, absolute Location", post: withLocation(201, "{host}/rest/1000/projects/9", ""),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "no body, relative Location with a trailing slash", post: withLocation(201, "/rest/1000/projects/9/", ""),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "no body, Location with an escaped id", post: withLocation(201, "/rest/1000/projects/a%2Fb%20c", ""),
			get: map[string]func(http.ResponseWriter, *http.Request){
				projectsURL + "/a%2Fb%20c": answer(200, `{"id":"a/b c","name":"n","description":null}`),
			},
			want:     &Project{ID: "a/b c", Name: "n"},
			wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/a%2Fb%20c"},
		},
		{
			name: "Location with a query", post: withLocation(201, "{host}/rest/1000/projects/9?view=full", ""),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "garbled body and a Location", post: withLocation(201, "/rest/1000/projects/9", `{"id":9,"na`),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "text body and a Location", post: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", "/rest/1000/projects/9")
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write([]byte("Created"))
			},
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "entity with a null id and a Location", post: withLocation(201, "/rest/1000/projects/9", `{"id":null,"name":"n","description":null}`),
			get:  map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": answer(200, projectJSON)},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
		{
			name: "JSON entity labelled as text", post: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusCreated)
				_, _ = w.Write([]byte(projectJSON))
			},
			want: wantProject, wantReqs: []string{"POST " + projectsURL},
		},
		{
			name: "read-back relabelled JSON", post: answer(202, `{"id":9}`),
			get: map[string]func(http.ResponseWriter, *http.Request){projectsURL + "/9": func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte(projectJSON))
			}},
			want: wantProject, wantReqs: []string{"POST " + projectsURL, "GET " + projectsURL + "/9"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answers := map[string]func(http.ResponseWriter, *http.Request){"POST " + projectsURL: tt.post}
			for p, h := range tt.get {
				answers["GET "+p] = h
			}
			srv := &scriptedServer{answers: answers}
			c, _ := newTestClient(t, srv)
			got, err := c.Projects.Create(context.Background(), ProjectInput{Name: "n"})
			if err != nil {
				t.Fatalf("Projects.Create: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("project (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantReqs, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// Every success status is a success, with or without a body.
func TestCreateAcceptsEverySuccessStatus(t *testing.T) {
	for _, status := range []int{200, 201, 202, 204} {
		for _, withBody := range []bool{true, false} {
			if status == 204 && withBody {
				continue // 204 has no body by definition
			}
			name := http.StatusText(status)
			if !withBody {
				name += " with only a Location"
			}
			t.Run(name, func(t *testing.T) {
				post := withLocation(status, "/rest/1000/projects/9", "")
				if withBody {
					post = answer(status, projectJSON)
				}
				srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
					"POST " + projectsURL:       post,
					"GET " + projectsURL + "/9": answer(200, projectJSON),
				}}
				c, _ := newTestClient(t, srv)
				var got Project
				if err := c.Resources.Create(context.Background(), projectsPath, ProjectInput{Name: "n"}, &got); err != nil {
					t.Fatalf("Resources.Create: %v", err)
				}
				if diff := cmp.Diff(wantProject, &got); diff != "" {
					t.Errorf("project (-want +got):\n%s", diff)
				}
				wantGets := 1
				if withBody {
					wantGets = 0
				}
				if srv.count("POST") != 1 || srv.count("GET") != wantGets {
					t.Errorf("requests = %v, want one POST and %d GET", srv.requests(), wantGets)
				}
			})
		}
	}
}

// A create whose answer cannot be completed says what happened: an answer
// that names nothing is an acted *UncertainError (never to be repeated),
// and one that names an id whose read-back fails carries that id.
func TestCreateAnswerErrors(t *testing.T) {
	t.Run("success naming nothing is acted", func(t *testing.T) {
		for _, post := range map[string]func(http.ResponseWriter, *http.Request){
			"204":                answer(204, ""),
			"201 with {}":        answer(201, `{}`),
			"200 without id":     answer(200, `{"name":"n","description":null}`),
			"202 with garbage":   answer(202, `<<<`),
			"Location to a root": withLocation(201, "/", ""),
		} {
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){"POST " + projectsURL: post}}
			c, _ := newTestClient(t, srv)
			p, err := c.Projects.Create(context.Background(), ProjectInput{Name: "n"})
			if err == nil {
				t.Fatalf("Projects.Create = %+v, want an error", p)
			}
			if !IsActed(err) || !IsUncertain(err) {
				t.Errorf("IsActed = %v, IsUncertain = %v for %v; want both", IsActed(err), IsUncertain(err), err)
			}
			if _, ok := MadeID(err); ok {
				t.Errorf("MadeID is set for an answer that named nothing: %v", err)
			}
			mustContain(t, err.Error(), "POST /rest/1000/projects: the service carried it out")
			mustContain(t, err.Error(), "named nothing it made")
			if diff := cmp.Diff([]string{"POST " + projectsURL}, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		}
	})

	t.Run("garbled answer, Location, failing read-back: MadeID", func(t *testing.T) {
		srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
			"POST " + projectsURL: withLocation(201, "/rest/1000/projects/9", `{"id":`),
			"GET " + projectsURL + "/9": func(w http.ResponseWriter, _ *http.Request) {
				writeError(w, 500, "INTERNAL_ERROR", "backend down", "")
			},
		}}
		c, _ := newTestClient(t, srv, noRetries)
		_, err := c.Projects.Create(context.Background(), ProjectInput{Name: "n"})
		id, ok := MadeID(err)
		if !ok || id != "9" {
			t.Fatalf("MadeID(%v) = %q, %v; want 9", err, id, ok)
		}
		var rb *ReadBackError
		if !errors.As(err, &rb) {
			t.Fatalf("err = %T, want a *ReadBackError", err)
		}
		if IsActed(err) {
			t.Error("a read-back error must not read as acted-without-id: the id is known")
		}
		mustContain(t, err.Error(), "made or changed object 9 but its answer could not be read")
		mustContain(t, err.Error(), "backend down")
		if srv.count("POST") != 1 || srv.count("GET") != 1 {
			t.Errorf("requests = %v", srv.requests())
		}
	})

	t.Run("read-back answered with something else than JSON: MadeID", func(t *testing.T) {
		srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
			"POST " + projectsURL: answer(201, `{"id":"p-1"}`),
			"GET " + projectsURL + "/p-1": func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html>login</html>"))
			},
		}}
		c, _ := newTestClient(t, srv)
		_, err := c.Projects.Create(context.Background(), ProjectInput{Name: "n"})
		if id, ok := MadeID(err); !ok || id != "p-1" {
			t.Fatalf("MadeID(%v) = %q, %v; want p-1", err, id, ok)
		}
	})

	t.Run("MadeID of other errors", func(t *testing.T) {
		for _, err := range []error{nil, errors.New("x"), &ReadBackError{Err: errors.New("no id")}, &UncertainError{Acted: true}} {
			if id, ok := MadeID(err); ok || id != "" {
				t.Errorf("MadeID(%v) = %q, %v", err, id, ok)
			}
		}
	})
}

// CreateOrAdopt over a create that acted but named nothing reads back: a
// project found is adopted, and when none is found the create is NOT sent
// again (the service said it made one).
func TestCreateOrAdoptActedCreate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		listing string
		wantErr bool
	}{
		{name: "found is adopted", listing: `[{"id":4,"name":"other"},{"id":9,"name":"n","dateCreated":"` + time.Now().UTC().Format(time.RFC3339) + `"}]`},
		{name: "not found is not repeated", listing: `[{"id":4,"name":"other"}]`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
				"POST " + projectsURL: answer(204, ""),
				"GET " + projectsURL:  answer(200, tc.listing),
			}}
			c, _ := newTestClient(t, srv)
			ctx := context.Background()
			p, err := CreateOrAdopt(ctx, c, "project n",
				func(ctx context.Context) (*Project, error) { return c.Projects.Create(ctx, ProjectInput{Name: "n"}) },
				func(ctx context.Context, since time.Time) (*Project, bool, error) {
					all, err := c.Projects.List(ctx)
					if err != nil {
						return nil, false, err
					}
					for i := range all {
						if all[i].Name == "n" && !all[i].DateCreated.Before(since) {
							return &all[i], true, nil
						}
					}
					return nil, false, nil
				})
			if posts := srv.count("POST"); posts != 1 {
				t.Errorf("the create was sent %d times, want once: %v", posts, srv.requests())
			}
			if srv.count("GET") != 1 {
				t.Errorf("read back %d times, want once: %v", srv.count("GET"), srv.requests())
			}
			if !tc.wantErr {
				if err != nil || p == nil || p.ID != "9" {
					t.Fatalf("CreateOrAdopt = %+v, %v; want project 9 adopted", p, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CreateOrAdopt = %+v, want an error", p)
			}
			if !IsActed(err) {
				t.Errorf("IsActed(%v) = false", err)
			}
			mustContain(t, err.Error(), "nothing was created again")
		})
	}
}

// An update answered with the entity needs no read-back; one answered
// with less (no body, 204, an entity lacking a key sent) is read back with
// one GET of the path written. A key sent as null may be absent.
func TestUpdateAnswers(t *testing.T) {
	desc := "d"
	full := `{"id":9,"name":"n","description":"d"}`
	tests := []struct {
		name    string
		in      ProjectInput
		put     func(http.ResponseWriter, *http.Request)
		wantGet bool
	}{
		{name: "entity", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, full)},
		{name: "entity with 202", in: ProjectInput{Name: "n", Description: &desc}, put: answer(202, full)},
		{name: "entity labelled as text", in: ProjectInput{Name: "n", Description: &desc}, put: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte(full))
		}},
		{name: "empty 200", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, ""), wantGet: true},
		{name: "204", in: ProjectInput{Name: "n", Description: &desc}, put: answer(204, ""), wantGet: true},
		{name: "lacks a key sent", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, `{"id":9,"name":"n"}`), wantGet: true},
		{name: "only the id", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, `{"id":9}`), wantGet: true},
		{name: "garbled", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, `{"id":9,`), wantGet: true},
		{name: "a JSON array", in: ProjectInput{Name: "n", Description: &desc}, put: answer(200, `[]`), wantGet: true},
		{name: "a key sent as null may be absent", in: ProjectInput{Name: "n"}, put: answer(200, `{"id":9,"name":"n"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getAnswer := full
			if tt.in.Description == nil {
				getAnswer = `{"id":9,"name":"n","description":null}`
			}
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
				"PUT " + projectsURL + "/9": tt.put,
				"GET " + projectsURL + "/9": answer(200, getAnswer),
			}}
			c, _ := newTestClient(t, srv)
			got, err := c.Projects.Update(context.Background(), "9", tt.in)
			if err != nil {
				t.Fatalf("Projects.Update: %v", err)
			}
			want := &Project{ID: "9", Name: "n", Description: tt.in.Description}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("project (-want +got):\n%s", diff)
			}
			wantReqs := []string{"PUT " + projectsURL + "/9"}
			if tt.wantGet {
				wantReqs = append(wantReqs, "GET "+projectsURL+"/9")
			}
			if diff := cmp.Diff(wantReqs, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("a failing read-back is the update's error", func(t *testing.T) {
		srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
			"PUT " + projectsURL + "/9": answer(204, ""),
		}}
		c, _ := newTestClient(t, srv)
		_, err := c.Projects.Update(context.Background(), "9", ProjectInput{Name: "n"})
		if !IsNotFound(err) {
			t.Errorf("err = %v, want the read-back's 404", err)
		}
	})
}

// The webhook secret is write-only: an answer that holds everything but
// the secret is complete, on create and on update; an answer lacking
// another key sent is read back.
func TestWebhookSecretNotEchoed(t *testing.T) {
	secret := "s3"
	in := WebhookInput{URL: "https://hooks.example.com/x", Events: []string{"message.sent"}, Active: true, Secret: &secret}
	echoed := `{"id":3,"url":"https://hooks.example.com/x","events":["message.sent"],"active":true,"description":null,"hasSecret":true}`
	for _, tc := range []struct {
		name, answer  string
		wantHasSecret bool
		wantGets      int // one per call that reads back
	}{
		{name: "all but the secret", answer: echoed, wantHasSecret: true},
		// hasSecret was not sent: the answer is complete without it.
		{name: "without hasSecret either", answer: strings.Replace(echoed, `,"hasSecret":true`, "", 1)},
		{name: "lacking the url", answer: strings.Replace(echoed, `"url":"https://hooks.example.com/x",`, "", 1), wantHasSecret: true, wantGets: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){
				"POST /rest/1000/webhooks":  answer(201, tc.answer),
				"PUT /rest/1000/webhooks/3": answer(200, tc.answer),
				"GET /rest/1000/webhooks/3": answer(200, echoed),
			}}
			c, _ := newTestClient(t, srv)
			created, err := c.Webhooks.Create(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			updated, err := c.Webhooks.Update(context.Background(), "3", in)
			if err != nil {
				t.Fatal(err)
			}
			want := &Webhook{ID: "3", URL: in.URL, Events: in.Events, Active: true, HasSecret: tc.wantHasSecret}
			for _, got := range []*Webhook{created, updated} {
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("webhook (-want +got):\n%s", diff)
				}
			}
			if srv.count("GET") != tc.wantGets || srv.count("POST") != 1 || srv.count("PUT") != 1 {
				t.Errorf("requests = %v, want %d GETs", srv.requests(), tc.wantGets)
			}
			if sent := srv.calls[0].body; !strings.Contains(sent, `"secret":"s3"`) {
				t.Errorf("the create did not send the secret: %s", sent)
			}
		})
	}
}

// holds and createdID, unit by unit.
func TestWriteAnswerHolds(t *testing.T) {
	tests := []struct {
		name, sent, body string
		skip             []string
		want             bool
	}{
		{"every key", `{"a":1,"b":"x"}`, `{"id":1,"a":1,"b":"x"}`, nil, true},
		{"a key missing", `{"a":1,"b":"x"}`, `{"id":1,"a":1}`, nil, false},
		{"a key sent as null", `{"a":1,"b":null}`, `{"a":1}`, nil, true},
		{"a skipped key", `{"a":1,"secret":"s"}`, `{"a":1}`, []string{"secret"}, true},
		{"a key answered as null", `{"a":1}`, `{"a":null}`, nil, true},
		{"empty body", `{"a":1}`, ``, nil, false},
		{"array", `{"a":1}`, `[{"a":1}]`, nil, false},
		{"string", `{"a":1}`, `"ok"`, nil, false},
		{"garbled", `{"a":1}`, `{"a":1`, nil, false},
		{"nothing sent, empty object", `{}`, `{}`, nil, true},
		{"leading blanks", `{"a":1}`, "\n  {\"a\":2}", nil, true},
	}
	for _, tt := range tests {
		a := &writeAnswer{body: []byte(tt.body)}
		if err := json.Unmarshal([]byte(tt.sent), &a.sent); err != nil { // as write does
			t.Fatal(err)
		}
		if got := a.holds(tt.skip...); got != tt.want {
			t.Errorf("%s: holds = %v, want %v", tt.name, got, tt.want)
		}
	}

	for _, tc := range []struct{ body, location, want string }{
		{`{"id":9}`, "", "9"},
		{`{"id":"9"}`, "", "9"},
		{`{"id":"9"}`, "/x/projects/10", "9"},
		{`{"id":null}`, "/x/projects/10", "10"},
		{`{"id":""}`, "/x/projects/10", "10"},
		{`{"id":{}}`, "/x/projects/10", "10"},
		{`garbage`, "https://h/rest/1/projects/11", "11"},
		{``, "/rest/1/projects/a%2Fb", "a/b"},
		{``, "/rest/1/projects/12/", "12"},
		{``, "projects/13", "13"},
		{``, "13", "13"},
		{``, "/", ""},
		{``, "", ""},
		{``, "%zz", ""},
		{``, "/rest/1/projects/%zz", ""},
	} {
		a := &writeAnswer{body: []byte(tc.body), location: tc.location}
		if got := a.createdID(); got != tc.want {
			t.Errorf("createdID(%s, Location %q) = %q, want %q", tc.body, tc.location, got, tc.want)
		}
	}
}

func TestIsJSONMediaType(t *testing.T) {
	for ct, want := range map[string]bool{
		"":                                true,
		"application/json":                true,
		"Application/JSON; charset=UTF-8": true,
		"application/problem+json":        true,
		"application/vnd.rms.v1+json":     true,
		";;;":                             true, // unparsable: the body decides
		"text/plain":                      false,
		"text/html; charset=utf-8":        false,
		"application/xml":                 false,
	} {
		if got := isJSONMediaType(ct); got != want {
			t.Errorf("isJSONMediaType(%q) = %v, want %v", ct, got, want)
		}
	}
}
