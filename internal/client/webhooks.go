package client

import (
	"context"
	"fmt"
	"sort"
	"time"
)

const webhooksPath = "webhooks"

// Webhook is an entity of the Webhooks domain (fields as the service
// conventions guide documents them). The secret is write-only: the service
// never returns it, only whether one is set.
type Webhook struct {
	ID           ID        `json:"id,omitempty"`
	URL          string    `json:"url"`
	Events       []string  `json:"events"`
	Active       bool      `json:"active"`
	Description  *string   `json:"description"`
	HasSecret    bool      `json:"hasSecret"`
	DateCreated  Timestamp `json:"dateCreated,omitempty"`
	DateModified Timestamp `json:"dateModified,omitempty"`
}

// WebhookInput is the writable part of a webhook. A non-nil Secret sets the
// secret; ClearSecret sends null, which removes it; otherwise the secret is
// left out of the body and the stored one is kept.
type WebhookInput struct {
	URL         string
	Events      []string
	Active      bool
	Description *string
	Secret      *string
	ClearSecret bool
}

// body is the JSON of the input. Description nil is sent as null, which
// removes a stored description.
func (in WebhookInput) body() map[string]any {
	b := map[string]any{
		"url":         in.URL,
		"events":      in.Events,
		"active":      in.Active,
		"description": in.Description,
	}
	switch {
	case in.Secret != nil:
		b["secret"] = *in.Secret
	case in.ClearSecret:
		b["secret"] = nil
	}
	return b
}

// webhookWriteOnly are the keys a webhook answer never echoes.
var webhookWriteOnly = []string{"secret"}

// Create creates a webhook.
func (s *WebhookService) Create(ctx context.Context, in WebhookInput) (*Webhook, error) {
	var w Webhook
	if err := s.c.Resources.Create(ctx, webhooksPath, in.body(), &w, webhookWriteOnly...); err != nil {
		return nil, fmt.Errorf("creating webhook for %q: %w", in.URL, err)
	}
	return &w, nil
}

// Get reads a webhook; the error matches ErrNotFound when it is gone.
func (s *WebhookService) Get(ctx context.Context, id string) (*Webhook, error) {
	var w Webhook
	if err := s.c.Resources.Get(ctx, webhooksPath, id, &w); err != nil {
		return nil, fmt.Errorf("reading webhook %s: %w", id, err)
	}
	return &w, nil
}

// Update updates a webhook.
func (s *WebhookService) Update(ctx context.Context, id string, in WebhookInput) (*Webhook, error) {
	var w Webhook
	if err := s.c.Resources.Update(ctx, webhooksPath, id, in.body(), &w, webhookWriteOnly...); err != nil {
		return nil, fmt.Errorf("updating webhook %s: %w", id, err)
	}
	return &w, nil
}

// Delete deletes a webhook; one already gone counts as deleted.
func (s *WebhookService) Delete(ctx context.Context, id string) error {
	if err := s.c.Resources.Delete(ctx, webhooksPath, id); err != nil {
		return fmt.Errorf("deleting webhook %s: %w", id, err)
	}
	return nil
}

// CreateOnce creates a webhook; after an unknown outcome it looks
// for a webhook with the same url and events created since the attempt
// began.
func (s *WebhookService) CreateOnce(ctx context.Context, in WebhookInput) (*Webhook, error) {
	return CreateOrAdopt(ctx, s.c, fmt.Sprintf("webhook for %q", in.URL),
		func(ctx context.Context) (*Webhook, error) { return s.Create(ctx, in) },
		func(ctx context.Context, since time.Time) (*Webhook, bool, error) {
			all, err := GetAll[Webhook](ctx, s.c, webhooksPath, nil)
			if err != nil {
				return nil, false, err
			}
			key := in.URL + " " + sameJSONKey(sortedCopy(in.Events))
			return adoptOne(all, "webhook", key, since,
				func(w Webhook) (string, time.Time, string) {
					return w.URL + " " + sameJSONKey(sortedCopy(w.Events)), w.DateCreated.Time, w.ID.String()
				})
		})
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
