package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// WebhookEvents are the event kinds a webhook can subscribe to.
var WebhookEvents = []string{
	"contact.created",
	"contact.updated",
	"contact.deleted",
	"contact.subscribed",
	"contact.unsubscribed",
	"import.finished",
	"export.finished",
	"message.sent",
	"message.opened",
	"message.clicked",
	"message.bounced",
}

// webhookWritable are the keys a webhook body may carry; readOnly keys are
// accepted (a client sending back a whole GET) and ignored.
var (
	webhookWritable = []string{"url", "events", "active", "description", "secret"}
	webhookReadOnly = []string{"id", "dateCreated", "dateModified", "hasSecret"}
)

func (s *webhooksAPI) registerWebhooks() {
	const base = "/rest/{customerid}/webhooks"
	s.handleJSON("GET "+base, s.listWebhooks)
	s.handleJSON("POST "+base, s.createWebhook)
	s.handleJSON("GET "+base+"/{id}", s.getWebhook)
	s.handleJSON("PUT "+base+"/{id}", s.updateWebhook)
	s.handleJSON("DELETE "+base+"/{id}", s.deleteWebhook)
}

// webhookView is a stored webhook as clients see it: without its secret.
func webhookView(e state.Entity) state.Entity {
	_, has := e["secret"]
	delete(e, "secret")
	e["hasSecret"] = has
	return e
}

func (s *webhooksAPI) webhooksPath() string {
	return "/rest/" + strconv.FormatInt(s.opts.CustomerID, 10) + "/webhooks"
}

func (s *webhooksAPI) listWebhooks(w http.ResponseWriter, r *http.Request) *apierr.Error {
	page, pageSize, err := s.pageParams(r)
	if err != nil {
		return err
	}
	items, total, _ := s.store.Page(nil, webhooksKey, pageOffset(page, pageSize), pageSize)
	for i := range items {
		items[i] = webhookView(items[i])
	}
	s.writePage(w, items, total)
	return nil
}

func (s *webhooksAPI) createWebhook(w http.ResponseWriter, r *http.Request) *apierr.Error {
	body, err := readWebhookBody(r)
	if err != nil {
		return err
	}
	if _, ok := body["active"]; !ok {
		body["active"] = true
	}
	if err := checkWebhook(body); err != nil {
		return err
	}
	e, _, _ := s.store.Create(nil, webhooksKey, body, s.now(), nil)
	w.Header().Set("Location", s.webhooksPath()+"/"+strconv.FormatInt(e["id"].(int64), 10))
	s.writeJSON(w, http.StatusCreated, webhookView(e))
	return nil
}

func (s *webhooksAPI) getWebhook(w http.ResponseWriter, r *http.Request) *apierr.Error {
	id, ok := parseID(r.PathValue("id"))
	e, found := s.store.Get(webhooksKey, id)
	if !ok || !found {
		return apierr.Errorf(http.StatusNotFound, "no webhook with id %q", r.PathValue("id"))
	}
	s.writeJSON(w, http.StatusOK, webhookView(e))
	return nil
}

// updateWebhook merges like every PUT: a key left out keeps its value
// (so the secret survives a PUT that does not mention it), null removes it.
func (s *webhooksAPI) updateWebhook(w http.ResponseWriter, r *http.Request) *apierr.Error {
	id, ok := parseID(r.PathValue("id"))
	if !ok {
		return apierr.Errorf(http.StatusNotFound, "no webhook with id %q", r.PathValue("id"))
	}
	body, err := readWebhookBody(r)
	if err != nil {
		return err
	}
	e, found, err := s.store.Update(webhooksKey, id, body, s.now(), func(e state.Entity) *apierr.Error {
		return checkWebhook(e)
	})
	if !found {
		return apierr.Errorf(http.StatusNotFound, "no webhook with id %q", r.PathValue("id"))
	}
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, webhookView(e))
	return nil
}

func (s *webhooksAPI) deleteWebhook(w http.ResponseWriter, r *http.Request) *apierr.Error {
	id, ok := parseID(r.PathValue("id"))
	if !ok || !s.store.Delete(webhooksKey, id) {
		return apierr.Errorf(http.StatusNotFound, "no webhook with id %q", r.PathValue("id"))
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// readWebhookBody reads a webhook body, drops the read-only keys and
// refuses unknown ones, so that a misspelt field is not silently ignored.
func readWebhookBody(r *http.Request) (map[string]any, *apierr.Error) {
	body, err := readJSONObject(r)
	if err != nil {
		return nil, err
	}
	for k := range body {
		switch {
		case slices.Contains(webhookReadOnly, k):
			delete(body, k)
		case !slices.Contains(webhookWritable, k):
			return nil, apierr.FieldError(k, "unknown webhook field %q; a webhook has %s", k, strings.Join(webhookWritable, ", "))
		}
	}
	return body, nil
}

// checkWebhook validates a whole webhook (a POST body, or the merged result
// of a PUT). Null values in a POST body mean "absent".
func checkWebhook(e map[string]any) *apierr.Error {
	for k, v := range e {
		if v == nil {
			delete(e, k)
		}
	}
	raw, ok := e["url"].(string)
	if !ok || raw == "" {
		return apierr.FieldError("url", "url is mandatory")
	}
	if err := checkWebhookURL(raw); err != nil {
		return err
	}
	events, ok := e["events"].([]any)
	if !ok || len(events) == 0 {
		return apierr.FieldError("events", "events is mandatory: a non-empty array of event kinds (%s)", strings.Join(WebhookEvents, ", "))
	}
	seen := map[string]bool{}
	for _, ev := range events {
		name, ok := ev.(string)
		if !ok || !slices.Contains(WebhookEvents, name) {
			return apierr.FieldError("events", "unknown event kind %v; known kinds: %s", ev, strings.Join(WebhookEvents, ", "))
		}
		if seen[name] {
			return apierr.FieldError("events", "event kind %q is listed twice", name)
		}
		seen[name] = true
	}
	if _, ok := e["active"].(bool); !ok {
		if _, present := e["active"]; present {
			return apierr.FieldError("active", "active must be true or false")
		}
		e["active"] = true
	}
	if d, present := e["description"]; present {
		if _, ok := d.(string); !ok {
			return apierr.FieldError("description", "description must be a string")
		}
	}
	if sec, present := e["secret"]; present {
		if str, ok := sec.(string); !ok || str == "" {
			return apierr.FieldError("secret", "secret must be a non-empty string; send null to remove it")
		}
	}
	return nil
}

// checkWebhookURL accepts https URLs, and http only to a loopback address:
// deliveries carry account data and must not travel in clear text.
func checkWebhookURL(raw string) *apierr.Error {
	if strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return apierr.FieldError("url", "url %q is not a valid URL: it contains a space or a control character", raw)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return apierr.FieldError("url", "url %q is not an absolute http(s) URL", raw)
	}
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return apierr.FieldError("url", "url %q must use https; plain http is accepted only for loopback addresses", raw)
	}
	return nil
}

// webhooksAPI serves the webhooks domain (deliveries are the deliverer's).
type webhooksAPI struct{ *base }
