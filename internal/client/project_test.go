package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// projectServer is a small in-memory Projects domain.
type projectServer struct {
	mu       sync.Mutex
	next     int
	projects map[string]map[string]any
	bodies   []string // raw request bodies of POST and PUT, in order
}

func newProjectServer() *projectServer {
	ps := &projectServer{next: 5, projects: map[string]map[string]any{}}
	return ps
}

func (ps *projectServer) handler(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	readBody := func(r *http.Request) (map[string]any, bool) {
		b, _ := io.ReadAll(r.Body)
		ps.bodies = append(ps.bodies, string(b))
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			return nil, false
		}
		return m, true
	}
	answer := func(w http.ResponseWriter, status int, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Error(err)
		}
		writeJSON(w, status, string(b))
	}
	mux.HandleFunc("POST /rest/1000/projects", func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		m, ok := readBody(r)
		if !ok {
			writeError(w, 400, "VALIDATION_ERROR", "not JSON", "")
			return
		}
		if name, _ := m["name"].(string); name == "" {
			writeError(w, 400, "VALIDATION_ERROR", "name is mandatory", "name")
			return
		}
		id := ps.next
		ps.next++
		m["id"] = id
		m["dateCreated"], m["dateModified"] = "2026-11-22T10:00:00Z", "2026-11-22T10:00:00Z"
		m["serverAdded"] = true
		ps.projects[strconv.Itoa(id)] = m
		w.Header().Set("Location", fmt.Sprintf("/rest/1000/projects/%d", id))
		answer(w, http.StatusCreated, m)
	})
	mux.HandleFunc("GET /rest/1000/projects", func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		if r.URL.Query().Get("page") != "0" || r.URL.Query().Get("pageSize") != "500" {
			writeError(w, 400, "VALIDATION_ERROR", "unexpected paging "+r.URL.RawQuery, "page")
			return
		}
		var all []map[string]any
		for id := 1; id < ps.next; id++ {
			if p, ok := ps.projects[strconv.Itoa(id)]; ok {
				all = append(all, p)
			}
		}
		answer(w, http.StatusOK, all)
	})
	mux.HandleFunc("GET /rest/1000/projects/{id}", func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		p, ok := ps.projects[r.PathValue("id")]
		if !ok {
			writeError(w, 404, "NOT_FOUND", "project "+r.PathValue("id")+" does not exist", "")
			return
		}
		answer(w, http.StatusOK, p)
	})
	mux.HandleFunc("PUT /rest/1000/projects/{id}", func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		p, ok := ps.projects[r.PathValue("id")]
		m, okBody := readBody(r)
		switch {
		case !ok:
			writeError(w, 404, "NOT_FOUND", "no such project", "")
			return
		case !okBody:
			writeError(w, 400, "VALIDATION_ERROR", "not JSON", "")
			return
		}
		for k, v := range m { // PUT merges; null removes
			if v == nil {
				delete(p, k)
			} else {
				p[k] = v
			}
		}
		p["dateModified"] = "2026-11-22T11:00:00Z"
		answer(w, http.StatusOK, p)
	})
	mux.HandleFunc("DELETE /rest/1000/projects/{id}", func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		if _, ok := ps.projects[r.PathValue("id")]; !ok {
			writeError(w, 404, "NOT_FOUND", "no such project", "")
			return
		}
		delete(ps.projects, r.PathValue("id"))
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func ptr[T any](v T) *T { return &v }

func TestProjectCRUD(t *testing.T) {
	ps := newProjectServer()
	c, _ := newTestClient(t, ps.handler(t))
	ctx := context.Background()

	// Create without a description sends it as null.
	p, err := c.Projects.Create(ctx, ProjectInput{Name: "alpha"})
	if err != nil {
		t.Fatalf("Projects.Create: %v", err)
	}
	want := &Project{ID: "5", Name: "alpha", DateCreated: TimestampOf("2026-11-22T10:00:00Z"), DateModified: TimestampOf("2026-11-22T10:00:00Z")}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}

	// Create with a description.
	q, err := c.Projects.Create(ctx, ProjectInput{Name: "beta", Description: ptr("the second")})
	if err != nil {
		t.Fatalf("Projects.Create: %v", err)
	}
	if q.ID != "6" || q.Description == nil || *q.Description != "the second" {
		t.Errorf("created %+v", q)
	}

	// Read back.
	got, err := c.Projects.Get(ctx, "6")
	if err != nil {
		t.Fatalf("Projects.Get: %v", err)
	}
	if diff := cmp.Diff(q, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}

	// Update removes the description (nil is sent as null) and renames.
	u, err := c.Projects.Update(ctx, "6", ProjectInput{Name: "beta2"})
	if err != nil {
		t.Fatalf("Projects.Update: %v", err)
	}
	wantU := &Project{ID: "6", Name: "beta2", DateCreated: TimestampOf("2026-11-22T10:00:00Z"), DateModified: TimestampOf("2026-11-22T11:00:00Z")}
	if diff := cmp.Diff(wantU, u); diff != "" {
		t.Errorf("updated (-want +got):\n%s", diff)
	}

	// List.
	all, err := c.Projects.List(ctx)
	if err != nil {
		t.Fatalf("Projects.List: %v", err)
	}
	if diff := cmp.Diff([]Project{*want, *wantU}, all); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}

	// Delete, then delete again: both succeed.
	for i := range 2 {
		if err := c.Projects.Delete(ctx, "5"); err != nil {
			t.Errorf("Projects.Delete #%d: %v", i+1, err)
		}
	}
	_, err = c.Projects.Get(ctx, "5")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("Projects.Get after delete = %v, want ErrNotFound", err)
	}
	if _, err := c.Projects.Update(ctx, "5", ProjectInput{Name: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Projects.Update of a deleted project = %v, want ErrNotFound", err)
	}

	// The bodies on the wire: description always present, null when nil.
	ps.mu.Lock()
	defer ps.mu.Unlock()
	wantBodies := []map[string]any{
		{"name": "alpha", "description": nil},
		{"name": "beta", "description": "the second"},
		{"name": "beta2", "description": nil},
		{"name": "x", "description": nil},
	}
	var gotBodies []map[string]any
	for _, b := range ps.bodies {
		var m map[string]any
		if err := json.Unmarshal([]byte(b), &m); err != nil {
			t.Fatalf("body %q: %v", b, err)
		}
		gotBodies = append(gotBodies, m)
	}
	if diff := cmp.Diff(wantBodies, gotBodies); diff != "" {
		t.Errorf("request bodies (-want +got):\n%s", diff)
	}
}

func TestCreateProjectValidation(t *testing.T) {
	c, _ := newTestClient(t, newProjectServer().handler(t))
	_, err := c.Projects.Create(context.Background(), ProjectInput{})
	if !errors.Is(err, ErrValidation) {
		t.Fatalf("Projects.Create = %v, want ErrValidation", err)
	}
	apiErr, _ := AsAPIError(err)
	if apiErr.Field != "name" || apiErr.Message != "name is mandatory" {
		t.Errorf("APIError = %+v", apiErr)
	}
	mustContain(t, err.Error(), `creating project "": POST /rest/1000/projects: 400 VALIDATION_ERROR: name is mandatory (field "name")`)
}
