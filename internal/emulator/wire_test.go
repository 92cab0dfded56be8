package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The first entity an account creates gets id 5: properties 1 to 4 are
// preloaded (conventions guide).
const (
	wireProjects = "/rest/1000/projects"
	wireLists    = "/rest/1000/lists"
	wireContacts = "/rest/1000/lists/5/contacts"
	wireExport   = "/rest/1000/batches/exports/statistics"
)

// wireT0 is the time of every timestamp a wire case's requests make: each
// case runs in a fresh synctest bubble and lets no time pass, so this is
// the bubble's start.
func wireT0() time.Time { return time.Now() }

// wireOffset is the time a wire case's requests made, as the time-offset
// profile writes it: milliseconds, in UTC+2.
func wireOffset() string {
	return wireT0().In(time.FixedZone("", 2*60*60)).Format("2006-01-02T15:04:05.000-07:00")
}

// wireCase runs the same requests against an emulator with the default
// answers and one with profile, and checks the last answer of each.
type wireCase struct {
	name    string
	profile string
	opts    func(*Options)
	run     func(t *testing.T, h http.Handler) *httptest.ResponseRecorder
	def     func(t *testing.T, rec *httptest.ResponseRecorder)
	alt     func(t *testing.T, rec *httptest.ResponseRecorder)
}

func newProject(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
	return do(t, h, http.MethodPost, wireProjects, map[string]any{"name": "p"})
}

// withProject creates project 5 first, then does method on path.
func withProject(method, path string, body any) func(*testing.T, http.Handler) *httptest.ResponseRecorder {
	return func(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
		newProject(t, h)
		return do(t, h, method, path, body)
	}
}

// withList creates list 5 first, then each request, answering the last.
func withList(reqs ...func(*testing.T, http.Handler) *httptest.ResponseRecorder) func(*testing.T, http.Handler) *httptest.ResponseRecorder {
	return func(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
		do(t, h, http.MethodPost, wireLists, map[string]any{"name": "L"})
		var rec *httptest.ResponseRecorder
		for _, r := range reqs {
			rec = r(t, h)
		}
		return rec
	}
}

func req(method, path string, body any, opts ...reqOption) func(*testing.T, http.Handler) *httptest.ResponseRecorder {
	return func(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
		return do(t, h, method, path, body, opts...)
	}
}

// withExport starts a PROJECTS export (batch 5), then GETs path.
func withExport(path string) func(*testing.T, http.Handler) *httptest.ResponseRecorder {
	return func(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
		rec := do(t, h, http.MethodPost, wireExport, map[string]any{"exportType": "PROJECTS", "period": "TODAY"})
		if rec.Code >= 300 {
			t.Fatalf("starting export: %d %s", rec.Code, rec.Body)
		}
		return do(t, h, http.MethodGet, path, nil)
	}
}

func wantField(t *testing.T, obj map[string]any, key string, want any) {
	t.Helper()
	got, ok := obj[key]
	if !ok {
		t.Errorf("%s missing from %v", key, obj)
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", key, diff)
	}
}

func wantNoField(t *testing.T, obj map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			t.Errorf("%s = %v, want it left out of %v", k, v, obj)
		}
	}
}

func wantContentType(t *testing.T, rec *httptest.ResponseRecorder, want string) {
	t.Helper()
	if got := rec.Header().Get("Content-Type"); got != want {
		t.Errorf("Content-Type = %q, want %q", got, want)
	}
}

func wantEmptyBody(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Body.Len() != 0 {
		t.Errorf("body = %q, want none", rec.Body.String())
	}
	wantContentType(t, rec, "")
}

func num(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

func wantDefaultError(status int, code string) func(*testing.T, *httptest.ResponseRecorder) {
	return func(t *testing.T, rec *httptest.ResponseRecorder) {
		t.Helper()
		wantErrorCode(t, rec, status, code)
	}
}

func wantStatusOnly(status int) func(*testing.T, *httptest.ResponseRecorder) {
	return func(t *testing.T, rec *httptest.ResponseRecorder) {
		t.Helper()
		wantStatus(t, rec, status)
	}
}

func wireCases() []wireCase {
	wantCreatedProject := func(t *testing.T, rec *httptest.ResponseRecorder) {
		wantStatus(t, rec, http.StatusCreated)
		wantField(t, decodeObject(t, rec), "name", "p")
		if loc := rec.Header().Get("Location"); loc != wireProjects+"/5" {
			t.Errorf("Location = %q", loc)
		}
	}
	missingProject := req(http.MethodGet, wireProjects+"/99", nil)
	twoContacts := withList(
		req(http.MethodPost, wireContacts, map[string]any{"originalId": "a", "properties": map[string]any{"firstname": "Ada"}}),
		req(http.MethodPost, wireContacts, map[string]any{"originalId": "a", "properties": map[string]any{"lastname": "L"}}),
	)
	threeProjects := func(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
		for range 3 {
			newProject(t, h)
		}
		return do(t, h, http.MethodGet, wireProjects+"?page=1&pageSize=2", nil)
	}
	pageIDs := func(t *testing.T, rec *httptest.ResponseRecorder) []string {
		var ids []string
		for _, e := range decodeArray(t, rec) {
			ids = append(ids, idOf(t, e))
		}
		return ids
	}
	return []wireCase{
		{name: "create-id-only", profile: WireCreateIDOnly, run: newProject, def: wantCreatedProject,
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				if diff := cmp.Diff(map[string]any{"id": num(5)}, decodeObject(t, rec)); diff != "" {
					t.Errorf("body (-want +got):\n%s", diff)
				}
			}},
		{name: "create-id-only contact", profile: WireCreateIDOnly,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				wantField(t, decodeObject(t, rec), "originalId", "a")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				if diff := cmp.Diff(map[string]any{"id": num(6)}, decodeObject(t, rec)); diff != "" {
					t.Errorf("body (-want +got):\n%s", diff)
				}
			}},
		{name: "create-id-only leaves import create alone", profile: WireCreateIDOnly,
			run: withList(req(http.MethodPost, "/rest/1000/lists/5/imports", map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				wantField(t, decodeObject(t, rec), "id", "6")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				wantField(t, decodeObject(t, rec), "id", "6")
			}},
		{name: "create-location", profile: WireCreateLocation, run: newProject, def: wantCreatedProject,
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				wantEmptyBody(t, rec)
				if loc := rec.Header().Get("Location"); loc != "http://example.com"+wireProjects+"/5" {
					t.Errorf("Location = %q, want an absolute URL", loc)
				}
			}},
		{name: "create-location contact", profile: WireCreateLocation,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a b"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				if loc := rec.Header().Get("Location"); loc != wireContacts+"/a%20b" {
					t.Errorf("Location = %q", loc)
				}
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusCreated)
				wantEmptyBody(t, rec)
				if loc := rec.Header().Get("Location"); loc != "http://example.com"+wireContacts+"/a%20b" {
					t.Errorf("Location = %q", loc)
				}
			}},
		{name: "write-200 create", profile: WireWrite200, run: newProject, def: wantCreatedProject,
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantField(t, decodeObject(t, rec), "name", "p")
			}},
		{name: "write-200 export", profile: WireWrite200, run: req(http.MethodPost, wireExport, map[string]any{"exportType": "PROJECTS", "period": "TODAY"}),
			def: wantStatusOnly(http.StatusAccepted),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantField(t, decodeObject(t, rec), "batchId", "5")
			}},
		{name: "write-200 delete", profile: WireWrite200, run: withProject(http.MethodDelete, wireProjects+"/5", nil),
			def: wantStatusOnly(http.StatusNoContent),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantEmptyBody(t, rec)
			}},
		{name: "update-empty", profile: WireUpdateEmpty, run: withProject(http.MethodPut, wireProjects+"/5", map[string]any{"name": "q"}),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantField(t, decodeObject(t, rec), "name", "q")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantEmptyBody(t, rec)
			}},
		{name: "update-204 subscriptionstatus", profile: WireUpdate204,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"}),
				req(http.MethodPut, wireContacts+"/a/subscriptionstatus", map[string]any{"status": "UNSUBSCRIBED"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantField(t, decodeObject(t, rec), "status", "UNSUBSCRIBED")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusNoContent)
				wantEmptyBody(t, rec)
			}},
		{name: "ids-string", profile: WireIDsString, run: withProject(http.MethodGet, wireProjects+"/5", nil),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) { wantField(t, decodeObject(t, rec), "id", num(5)) },
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) { wantField(t, decodeObject(t, rec), "id", "5") }},
		{name: "ids-string batch", profile: WireIDsString, run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "id", num(5))
				wantField(t, b, "customerId", num(1000))
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "id", "5")
				wantField(t, b, "customerId", "1000")
			}},
		{name: "ids-number", profile: WireIDsNumber,
			run: withList(req(http.MethodPost, "/rest/1000/lists/5/imports", map[string]any{"delimiter": "44", "encoding": "UTF8", "type": "ADD"}),
				req(http.MethodGet, "/rest/1000/lists/5/imports", nil)),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				imp := decodeArray(t, rec)[0]
				wantField(t, imp, "id", "6")
				wantField(t, imp, "listId", "5")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				imp := decodeArray(t, rec)[0]
				wantField(t, imp, "id", num(6))
				wantField(t, imp, "listId", num(5))
				wantField(t, imp, "batchId", nil)
			}},
		{name: "time-millis", profile: WireTimeMillis, run: withProject(http.MethodGet, wireProjects+"/5", nil),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "dateCreated", rfc3339(wireT0()))
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				p := decodeObject(t, rec)
				wantField(t, p, "dateCreated", num(wireT0().UnixMilli()))
				wantField(t, p, "dateModified", num(wireT0().UnixMilli()))
			}},
		{name: "time-seconds batch", profile: WireTimeSeconds, run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "startTime", num(wireT0().UnixMilli()))
				wantField(t, b, "dateCreated", rfc3339(wireT0()))
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "startTime", num(wireT0().Unix()))
				wantField(t, b, "endTime", num(wireT0().Unix()))
				wantField(t, b, "dateCreated", num(wireT0().Unix()))
			}},
		{name: "time-offset", profile: WireTimeOffset, run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "endTime", num(wireT0().UnixMilli()))
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "dateCreated", wireOffset())
				wantField(t, b, "startTime", wireOffset())
				wantField(t, b, "endTime", wireOffset())
			}},
		{name: "optional-null", profile: WireOptionalNull, run: withList(req(http.MethodGet, wireLists+"/5", nil)),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantNoField(t, decodeObject(t, rec), "description", "senderName", "senderEmail")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				l := decodeObject(t, rec)
				for _, k := range []string{"description", "senderName", "senderEmail"} {
					wantField(t, l, k, nil)
				}
			}},
		{name: "optional-null batch", profile: WireOptionalNull, opts: func(o *Options) { o.BatchPendingFor = time.Minute },
			run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantNoField(t, decodeObject(t, rec), "endTime", "error")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "endTime", nil)
				wantField(t, b, "error", nil)
			}},
		{name: "optional-empty", profile: WireOptionalEmpty, run: withProject(http.MethodGet, wireProjects+"/5", nil),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantNoField(t, decodeObject(t, rec), "description")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "description", "")
			}},
		{name: "extra-fields", profile: WireExtraFields, run: withProject(http.MethodGet, wireProjects, nil),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantNoField(t, decodeArray(t, rec)[0], "_links", "xVersion", "tags")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				p := decodeArray(t, rec)[0]
				wantField(t, p, "_links", map[string]any{"self": wireProjects + "/5"})
				wantField(t, p, "xVersion", json.Number("2"))
				wantField(t, p, "tags", []any{})
				wantField(t, p, "name", "p")
			}},
		{name: "errors-text", profile: WireErrorsText, run: missingProject, def: wantDefaultError(404, CodeNotFound),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusNotFound)
				wantContentType(t, rec, "text/plain; charset=utf-8")
				body := rec.Body.String()
				if !strings.HasPrefix(body, "404 Not Found: no entity with id") || strings.Count(body, "\n") != 1 {
					t.Errorf("body = %q, want one line", body)
				}
			}},
		{name: "errors-html", profile: WireErrorsHTML, run: missingProject, def: wantDefaultError(404, CodeNotFound),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusNotFound)
				wantContentType(t, rec, "text/html; charset=utf-8")
				body := rec.Body.String()
				if !strings.HasPrefix(body, "<html><head><title>404 Not Found</title>") || !strings.Contains(body, "no entity with id &#34;99&#34;") {
					t.Errorf("body = %q", body)
				}
			}},
		{name: "errors-empty", profile: WireErrorsEmpty, run: req(http.MethodGet, wireProjects, nil, withoutAuth()),
			def: wantDefaultError(401, CodeUnauthorized),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusUnauthorized)
				wantEmptyBody(t, rec)
				if rec.Header().Get("WWW-Authenticate") == "" {
					t.Error("WWW-Authenticate lost")
				}
			}},
		{name: "errors-other-json", profile: WireErrorsOtherJSON, run: req(http.MethodPost, wireProjects, map[string]any{}),
			def: wantDefaultError(400, CodeValidation),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusBadRequest)
				wantContentType(t, rec, "application/problem+json")
				inner, _ := decodeObject(t, rec)["error"].(map[string]any)
				wantField(t, inner, "code", CodeValidation)
				wantField(t, inner, "target", "name")
				if d, _ := inner["description"].(string); d == "" {
					t.Errorf("no description in %v", inner)
				}
			}},
		{name: "charset-none", profile: WireCharsetNone, run: req(http.MethodGet, wireProjects, nil),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantContentType(t, rec, "application/json; charset=utf-8")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) { wantContentType(t, rec, "application/json") }},
		{name: "charset-upper", profile: WireCharsetUpper, run: missingProject,
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantContentType(t, rec, "application/json; charset=utf-8")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantContentType(t, rec, "application/json;charset=UTF-8")
				wantErrorCode(t, rec, 404, CodeNotFound)
			}},
		{name: "properties-by-id", profile: WirePropertiesByID,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a", "properties": map[string]any{"firstname": "Ada"}}),
				req(http.MethodPut, wireContacts+"/a", map[string]any{"properties": map[string]any{"4": "Lovelace"}}),
				req(http.MethodGet, wireContacts+"/a", nil)),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "properties", map[string]any{"firstname": "Ada", "lastname": "Lovelace"})
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "properties", map[string]any{"3": "Ada", "4": "Lovelace"})
			}},
		{name: "no-statuses", profile: WireNoStatuses,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"}), req(http.MethodGet, wireContacts, nil)),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeArray(t, rec)[0], "status", state.StatusSubscribed)
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				c := decodeArray(t, rec)[0]
				wantNoField(t, c, "status", "mobileStatus")
				wantField(t, c, "originalId", "a")
			}},
		{name: "double-opt-in", profile: WireDoubleOptIn,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a", "status": "SUBSCRIBED", "mobileStatus": "SUBSCRIBED"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", state.StatusSubscribed)
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				c := decodeObject(t, rec)
				wantField(t, c, "status", state.StatusUnsubscribed)
				wantField(t, c, "mobileStatus", state.StatusUnsubscribed)
			}},
		{name: "double-opt-in then subscribe", profile: WireDoubleOptIn,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"}),
				req(http.MethodPut, wireContacts+"/a/subscriptionstatus", map[string]any{"status": "SUBSCRIBED"})),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "mobileStatus", state.StatusSubscribed)
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				c := decodeObject(t, rec)
				wantField(t, c, "status", state.StatusSubscribed)
				wantField(t, c, "mobileStatus", state.StatusUnsubscribed)
			}},
		{name: "status-other", profile: WireStatusOther,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"}), req(http.MethodGet, wireContacts+"/a", nil)),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", state.StatusSubscribed)
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				c := decodeObject(t, rec)
				wantField(t, c, "status", "PENDING")
				wantField(t, c, "mobileStatus", state.StatusSubscribed)
			}},
		{name: "status-other refuses PENDING in requests", profile: WireStatusOther,
			run: withList(req(http.MethodPost, wireContacts, map[string]any{"originalId": "a"}),
				req(http.MethodPut, wireContacts+"/a/subscriptionstatus", map[string]any{"status": "PENDING"})),
			def: wantDefaultError(400, CodeValidation), alt: wantDefaultError(400, CodeValidation)},
		{name: "contact-conflict-400", profile: WireContactConflict400, run: twoContacts,
			def: wantDefaultError(409, CodeConflict),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantError(t, rec, ErrorBody{Status: 400, Code: CodeValidation, Field: "originalId", Message: "originalId already exists in this list"})
			}},
		{name: "contact-upsert", profile: WireContactUpsert, run: twoContacts,
			def: wantDefaultError(409, CodeConflict),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantField(t, decodeObject(t, rec), "properties", map[string]any{"firstname": "Ada", "lastname": "L"})
			}},
		{name: "paging-ignored", profile: WirePagingIgnored, run: threeProjects,
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				if diff := cmp.Diff([]string{"7"}, pageIDs(t, rec)); diff != "" {
					t.Error(diff)
				}
				if rec.Header().Get("X-Total-Count") != "3" {
					t.Errorf("X-Total-Count = %q", rec.Header().Get("X-Total-Count"))
				}
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				if diff := cmp.Diff([]string{"5", "6", "7"}, pageIDs(t, rec)); diff != "" {
					t.Error(diff)
				}
				if _, ok := rec.Header()["X-Total-Count"]; ok {
					t.Error("X-Total-Count sent")
				}
			}},
		{name: "paging-page-ignored", profile: WirePagingPageIgnored, run: threeProjects,
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				if diff := cmp.Diff([]string{"7"}, pageIDs(t, rec)); diff != "" {
					t.Error(diff)
				}
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				if diff := cmp.Diff([]string{"5", "6"}, pageIDs(t, rec)); diff != "" {
					t.Error(diff)
				}
				if rec.Header().Get("X-Total-Count") != "3" {
					t.Errorf("X-Total-Count = %q", rec.Header().Get("X-Total-Count"))
				}
			}},
		{name: "batch-sparse", profile: WireBatchSparse, run: withExport("/rest/1000/batches"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeArray(t, rec)[0], "total", num(0))
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				want := map[string]any{"id": num(5), "status": "FINISHED", "dateCreated": rfc3339(wireT0()), "exportType": "PROJECTS", "period": "TODAY"}
				if diff := cmp.Diff(want, decodeArray(t, rec)[0]); diff != "" {
					t.Errorf("batch (-want +got):\n%s", diff)
				}
			}},
		{name: "batch-status-other pending", profile: WireBatchStatusOther, opts: func(o *Options) { o.BatchPendingFor = time.Minute },
			run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", "PENDING")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", "QUEUED")
			}},
		{name: "batch-status-other finished", profile: WireBatchStatusOther, run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", "FINISHED")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", "COMPLETED")
			}},
		{name: "batch-status-other failed", profile: WireBatchStatusOther, opts: func(o *Options) { o.BatchError = func(string) string { return "disk full" } },
			run: withExport("/rest/1000/batches/5"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantField(t, decodeObject(t, rec), "status", "FINISHED")
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				b := decodeObject(t, rec)
				wantField(t, b, "status", "FAILED")
				wantField(t, b, "error", "disk full")
			}},
		{name: "result-direct", profile: WireResultDirect, run: withExport("/rest/1000/batches/5/result"),
			def: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusFound)
				if !strings.Contains(rec.Header().Get("Location"), objectStorePrefix) {
					t.Errorf("Location = %q", rec.Header().Get("Location"))
				}
			},
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantContentType(t, rec, "text/csv; charset=utf-8")
				if got := rec.Body.String(); got != "projectId,name,dateCreated,dateModified\n" {
					t.Errorf("file = %q", got)
				}
			}},
		{name: "result-url-json", profile: WireResultURLJSON, run: withExport("/rest/1000/batches/5/result/url"),
			def: wantDefaultError(406, CodeNotAcceptable),
			alt: func(t *testing.T, rec *httptest.ResponseRecorder) {
				wantStatus(t, rec, http.StatusOK)
				wantContentType(t, rec, jsonContentType)
				if u, _ := decodeObject(t, rec)["url"].(string); !strings.HasPrefix(u, "http://example.com"+objectStorePrefix) {
					t.Errorf("url = %q", u)
				}
			}},
		{name: "no-listings imports", profile: WireNoListings, run: withList(req(http.MethodGet, "/rest/1000/lists/5/imports", nil)),
			def: wantStatusOnly(http.StatusOK), alt: wantDefaultError(404, CodeNotFound)},
		{name: "no-listings batches", profile: WireNoListings, run: req(http.MethodGet, "/rest/1000/batches", nil),
			def: wantStatusOnly(http.StatusOK), alt: wantDefaultError(405, CodeMethodNotAllowed)},
	}
}

func TestWireProfiles(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range wireCases() {
		covered[tc.profile] = true
		t.Run(tc.name, func(t *testing.T) {
			for _, alt := range []bool{false, true} {
				synctest.Test(t, func(t *testing.T) {
					var opts Options
					if tc.opts != nil {
						tc.opts(&opts)
					}
					check := tc.def
					if alt {
						opts.Wire = MustParseWire(tc.profile)
						check = tc.alt
					}
					s := New(opts)
					t.Cleanup(s.Close)
					check(t, tc.run(t, s))
				})
			}
		})
	}
	for _, p := range WireProfiles() {
		if !covered[p.Name] {
			t.Errorf("profile %s has no test case", p.Name)
		}
	}
}

func TestParseWire(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "", want: ""},
		{in: " ids-string , time-millis ", want: "ids-string,time-millis"},
		{in: "time-millis,ids-string", want: "ids-string,time-millis"},
		{in: "all", want: strings.Join(allWireNames, ",")},
		{in: "all,write-200", want: ""},
		{in: "bogus", wantErr: `unknown wire profile "bogus"; valid profiles: create-id-only, `},
		{in: "time-millis,time-seconds", wantErr: "time-millis and time-seconds are alternatives"},
		{in: "create-id-only,create-location", wantErr: "create-id-only and create-location"},
		{in: "update-empty,update-204", wantErr: "update-empty and update-204"},
		{in: "errors-text,errors-empty", wantErr: "errors-text and errors-empty"},
		{in: "charset-none,charset-upper", wantErr: "charset-none and charset-upper"},
		{in: "contact-conflict-400,contact-upsert", wantErr: "contact-conflict-400 and contact-upsert"},
		{in: "paging-ignored,paging-page-ignored", wantErr: "paging-ignored and paging-page-ignored"},
		{in: "ids-string,ids-number", wantErr: "ids-string and ids-number"},
		{in: "all,errors-text", wantErr: "errors-text and errors-html"},
	}
	for _, tt := range tests {
		w, err := ParseWire(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseWire(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseWire(%q): %v", tt.in, err)
			continue
		}
		if tt.in == "all,write-200" {
			if !w.Has(WireWrite200) || !w.Has(WireCreateIDOnly) {
				t.Errorf("ParseWire(%q) = %s", tt.in, w)
			}
			continue
		}
		if w.String() != tt.want {
			t.Errorf("ParseWire(%q) = %q, want %q", tt.in, w, tt.want)
		}
		if back, err := ParseWire(w.String()); err != nil || back != w {
			t.Errorf("ParseWire(String()) of %q = %v, %v", tt.in, back, err)
		}
	}
	if (Wire{}).Has(WireIDsString) || !(Wire{}).IsZero() {
		t.Error("the zero Wire holds a profile")
	}
	if AllWire.String() != strings.Join(allWireNames, ",") {
		t.Errorf("AllWire = %s", AllWire)
	}
	names := map[string]bool{}
	for _, p := range WireProfiles() {
		if names[p.Name] || p.Description == "" || strings.Contains(p.Description, "\n") {
			t.Errorf("profile %q: repeated, or not one line of description", p.Name)
		}
		names[p.Name] = true
	}
}

// Under every profile at once, the answers the layer must not touch stay
// as they are: the OpenAPI document, an export file download, the result
// URL in text/plain. (Webhook deliveries are requests the emulator makes,
// not answers, so the layer never sees them.)
func TestWireLeavesStreamsAlone(t *testing.T) {
	s := New(Options{Wire: MustParseWire("all,write-200")})
	t.Cleanup(s.Close)
	def := New(Options{})
	t.Cleanup(def.Close)

	got, want := do(t, s, http.MethodGet, "/mail/swagger", nil), do(t, def, http.MethodGet, "/mail/swagger", nil)
	if got.Body.String() != want.Body.String() || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
		t.Errorf("/mail/swagger changed: %q", got.Header().Get("Content-Type"))
	}

	if rec := do(t, s, http.MethodPost, wireExport, map[string]any{"exportType": "LISTS", "period": "TODAY"}); rec.Code != http.StatusOK {
		t.Fatalf("export: %d %s", rec.Code, rec.Body)
	}
	rec := do(t, s, http.MethodGet, "/rest/1000/batches/5/result/url", nil, withHeader("Accept", "text/plain"))
	wantStatus(t, rec, http.StatusOK)
	wantContentType(t, rec, "text/plain; charset=utf-8")
	u := rec.Body.String()
	if !strings.HasPrefix(u, "http://example.com"+objectStorePrefix) {
		t.Fatalf("result URL = %q", u)
	}
	rec = do(t, s, http.MethodGet, strings.TrimPrefix(u, "http://example.com"), nil, withoutAuth())
	wantStatus(t, rec, http.StatusOK)
	wantContentType(t, rec, "text/csv; charset=utf-8")
	if !strings.HasPrefix(rec.Body.String(), "listId,name,contacts") {
		t.Errorf("file = %q", rec.Body.String())
	}
}

// The layer sees the real handler on a real connection too (Listen).
func TestWireOverListen(t *testing.T) {
	l, err := Listen("127.0.0.1:0", Options{Wire: MustParseWire("create-location,write-200")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	r, _ := http.NewRequest(http.MethodPost, l.URL+wireProjects, strings.NewReader(`{"name":"p"}`))
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Location") != l.URL+wireProjects+"/5" || resp.ContentLength != 0 {
		t.Errorf("create: %d, Location %q, length %d", resp.StatusCode, resp.Header.Get("Location"), resp.ContentLength)
	}
}
