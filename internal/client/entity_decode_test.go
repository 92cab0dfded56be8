package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// An entity held as generic JSON reads as its typed form with the typed
// read's tolerance; a field of the wrong JSON type is refused, naming it.
func TestDecodeEntity(t *testing.T) {
	var p Project
	err := DecodeEntity(Entity{
		"id": json.Number("42"), "name": "Spring", "description": nil,
		"dateCreated": json.Number("1700000000"), "dateModified": "2024-01-02T03:04:05Z",
		"color": "red",
	}, &p)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "42" || p.Name != "Spring" || p.Description != nil {
		t.Errorf("decoded %+v", p)
	}
	if got := p.DateCreated.String(); !strings.HasPrefix(got, "2023-11-14T22:13:20") {
		t.Errorf("epoch dateCreated read as %q", got)
	}
	if got := p.DateModified.String(); got != "2024-01-02T03:04:05Z" {
		t.Errorf("dateModified read as %q", got)
	}

	var w Webhook
	if err := DecodeEntity(Entity{"id": "7", "events": []any{"message.sent"}, "active": true, "hasSecret": true}, &w); err != nil {
		t.Fatal(err)
	}
	if w.ID != "7" || len(w.Events) != 1 || !w.Active || !w.HasSecret {
		t.Errorf("decoded %+v", w)
	}

	err = DecodeEntity(Entity{"name": json.Number("5")}, &p)
	if err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("a number for name: err = %v, want one naming the field", err)
	}
}
