package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

// maxJSONBody is the largest JSON request body accepted (conventions: 413
// above 1 MiB).
const maxJSONBody = 1 << 20

// accepts reports whether the request's Accept header allows mediaType
// ("type/subtype"). An absent header allows everything. The most specific
// matching range decides, so "application/json;q=0, */*" refuses JSON.
func accepts(r *http.Request, mediaType string) bool {
	return acceptQuality(r, mediaType) > 0
}

// acceptQuality is the weight (q, 0 to 1) the request's Accept header gives
// mediaType, taken from the most specific range that matches it: 0 when none
// does, 1 when there is no header. Comparing two types' weights is how a
// route with several representations picks one.
func acceptQuality(r *http.Request, mediaType string) float64 {
	values := r.Header.Values("Accept")
	if len(values) == 0 {
		return 1
	}
	typ, _, _ := strings.Cut(mediaType, "/")
	bestSpecificity, bestQ := -1, 0.0
	for _, v := range values {
		for _, rng := range strings.Split(v, ",") {
			rng = strings.TrimSpace(rng)
			if rng == "" {
				continue
			}
			mt, params, err := mime.ParseMediaType(rng)
			if err != nil {
				continue
			}
			specificity := -1
			switch mt {
			case mediaType:
				specificity = 2
			case typ + "/*":
				specificity = 1
			case "*/*":
				specificity = 0
			}
			if specificity < bestSpecificity || specificity < 0 {
				continue
			}
			q := 1.0
			if qs, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(qs, 64); err == nil {
					q = f
				}
			}
			if specificity > bestSpecificity || q > bestQ {
				bestSpecificity, bestQ = specificity, q
			}
		}
	}
	if bestSpecificity < 0 {
		return 0
	}
	return bestQ
}

// checkJSONContentType enforces Content-Type: application/json on a body;
// a charset parameter other than utf-8 is refused (conventions: 415).
func checkJSONContentType(r *http.Request) *apierr.Error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return apierr.Errorf(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return apierr.Errorf(http.StatusUnsupportedMediaType, "Content-Type %q is not supported; use application/json", ct)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return apierr.Errorf(http.StatusUnsupportedMediaType, "charset %q is not supported; JSON bodies must be UTF-8", cs)
	}
	return nil
}

// readJSONObject reads a JSON object body (at most maxJSONBody bytes).
// Numbers are kept as json.Number so that they round-trip exactly.
func readJSONObject(r *http.Request) (map[string]any, *apierr.Error) {
	if r.ContentLength > maxJSONBody {
		return nil, apierr.Errorf(http.StatusRequestEntityTooLarge, "request body of %d bytes exceeds the limit of %d bytes", r.ContentLength, maxJSONBody)
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		return nil, apierr.Errorf(http.StatusBadRequest, "reading request body: %v", err)
	}
	if len(data) > maxJSONBody {
		return nil, apierr.Errorf(http.StatusRequestEntityTooLarge, "request body exceeds the limit of %d bytes", maxJSONBody)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, apierr.Errorf(http.StatusBadRequest, "request body is empty; a JSON object is required")
		}
		return nil, apierr.Errorf(http.StatusBadRequest, "request body is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, apierr.Errorf(http.StatusBadRequest, "request body holds data after the JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Errorf(http.StatusBadRequest, "request body must be a JSON object")
	}
	return obj, nil
}

const jsonContentType = "application/json; charset=utf-8"
