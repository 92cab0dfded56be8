package emulator

import "net/http"

// wantsSwaggerPage reports whether a request to /mail/swagger gets the
// interactive page rather than the OpenAPI document. Only a client that
// weighs text/html above application/json does (a browser: "text/html, ...,
// */*;q=0.8"); a tie, no Accept header and "*/*" keep the document, so that
// every program that read /mail/swagger before the page existed still gets
// JSON. format=json asks for the document whatever the header says: the page
// itself loads it that way, so it never depends on the Accept header its
// script happens to send.
func wantsSwaggerPage(r *http.Request) bool {
	if r.URL.Query().Get("format") == "json" {
		return false
	}
	return acceptQuality(r, "text/html") > acceptQuality(r, "application/json")
}
