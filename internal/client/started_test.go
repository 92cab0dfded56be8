package client

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The calls that start something (an import, an upload, an export) read
// the id they started from the body, as a number or a string, else from
// the Location header; an answer that names nothing is acted (never to be
// repeated). Each call is sent once.
func TestStartedIDAnswers(t *testing.T) {
	calls := []struct {
		name, path, key string
		start           func(*Client) (ID, error)
	}{
		{
			name: "Imports.Create", path: "/rest/1000/lists/5/imports", key: "id",
			start: func(c *Client) (ID, error) {
				return c.Imports.Create(context.Background(), "5", ImportRequest{Delimiter: "44", Encoding: "UTF8", Type: "ADD"})
			},
		},
		{
			name: "Imports.Upload", path: "/rest/1000/lists/5/recipients/7", key: "batchId",
			start: func(c *Client) (ID, error) {
				return c.Imports.Upload(context.Background(), "5", "7", strings.NewReader("originalId\na\n"))
			},
		},
		{
			name: "Exports.StartStatistics", path: "/rest/1000/batches/exports/statistics", key: "batchId",
			start: func(c *Client) (ID, error) {
				return c.Exports.StartStatistics(context.Background(), StatisticsExportRequest{ExportType: "SENT", Period: "TODAY"})
			},
		},
	}
	answers := []struct {
		name      string
		answer    func(key string) func(http.ResponseWriter, *http.Request)
		want      ID
		wantActed bool
	}{
		{name: "number in the body", want: "12", answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return answer(201, `{"`+k+`":12,"other":1}`)
		}},
		{name: "string in the body", want: "b-12", answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return answer(202, `{"`+k+`":"b-12"}`)
		}},
		{name: "body wins over Location", want: "12", answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return withLocation(201, "/rest/1000/things/99", `{"`+k+`":12}`)
		}},
		{name: "relative Location, no body", want: "13", answer: func(string) func(http.ResponseWriter, *http.Request) {
			return withLocation(201, "/rest/1000/things/13", "")
		}},
		{name: "absolute Location, 204", want: "14", answer: func(string) func(http.ResponseWriter, *http.Request) {
			return withLocation(204, "{host}/rest/1000/things/14", "")
		}},
		{name: "null in the body and a Location", want: "15", answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return withLocation(200, "/rest/1000/things/15", `{"`+k+`":null}`)
		}},
		{name: "garbled body and a Location", want: "16", answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return withLocation(200, "/rest/1000/things/16", `{"`+k+`":`)
		}},
		{name: "204 naming nothing", wantActed: true, answer: func(string) func(http.ResponseWriter, *http.Request) {
			return answer(204, "")
		}},
		{name: "an object without the key", wantActed: true, answer: func(string) func(http.ResponseWriter, *http.Request) {
			return answer(200, `{"status":"ACCEPTED"}`)
		}},
		{name: "the key empty", wantActed: true, answer: func(k string) func(http.ResponseWriter, *http.Request) {
			return answer(200, `{"`+k+`":""}`)
		}},
	}
	for _, call := range calls {
		for _, a := range answers {
			t.Run(call.name+"/"+a.name, func(t *testing.T) {
				srv := &scriptedServer{answers: map[string]func(http.ResponseWriter, *http.Request){"POST " + call.path: a.answer(call.key)}}
				c, _ := newTestClient(t, srv)
				id, err := call.start(c)
				if diff := cmp.Diff([]string{"POST " + call.path}, srv.requests()); diff != "" {
					t.Errorf("requests (-want +got):\n%s", diff)
				}
				if !a.wantActed {
					if err != nil || id != a.want {
						t.Errorf("%s = %q, %v; want %q", call.name, id, err, a.want)
					}
					return
				}
				if err == nil || id != "" {
					t.Fatalf("%s = %q, %v; want an acted error", call.name, id, err)
				}
				if !IsActed(err) || !IsUncertain(err) {
					t.Errorf("IsActed = %v, IsUncertain = %v for %v", IsActed(err), IsUncertain(err), err)
				}
				mustContain(t, err.Error(), "POST "+call.path+": the service carried it out")
			})
		}
	}
}
