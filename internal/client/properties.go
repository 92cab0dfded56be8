package client

import (
	"context"
	"fmt"
)

// Property is an account-wide contact attribute (the Properties domain).
// Contacts key their properties by its Name or by its ID written as a
// string.
type Property struct {
	ID   ID     `json:"id"`
	Name string `json:"name"`
}

// List returns every contact attribute of the account.
func (s *PropertyService) List(ctx context.Context) ([]Property, error) {
	ps, err := GetAll[Property](ctx, s.c, "properties", nil)
	if err != nil {
		return nil, fmt.Errorf("listing contact properties: %w", err)
	}
	return ps, nil
}
