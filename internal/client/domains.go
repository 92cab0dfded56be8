package client

// The client's calls are grouped by the service's domains, as go-tfe and the
// AWS SDK group theirs: c.Lists.Create, c.Contacts.Get. Each domain type
// holds the shared Client, whose transport, credentials and configuration
// every call goes through; the Client itself keeps only those.

// ListService administers lists.
type ListService struct{ c *Client }

// ContactService reads and writes the contacts of a list.
type ContactService struct{ c *Client }

// ImportService creates and uploads the imports of a list.
type ImportService struct{ c *Client }

// BatchService reads the service's batches, waits for them and fetches their
// results.
type BatchService struct{ c *Client }

// ExportService starts statistics exports.
type ExportService struct{ c *Client }

// ProjectService administers projects.
type ProjectService struct{ c *Client }

// WebhookService administers webhooks.
type WebhookService struct{ c *Client }

// PropertyService reads the account's contact properties.
type PropertyService struct{ c *Client }

// TriggerService sends transactional messages through triggers.
type TriggerService struct{ c *Client }

// EntityService reads and writes any collection that follows the generic
// resource pattern, each entity as a map of its fields.
type EntityService struct{ c *Client }

// ResourceService reads and writes any collection that follows the generic
// resource pattern, decoding into the caller's type.
type ResourceService struct{ c *Client }

// bindDomains points every domain type at c.
func (c *Client) bindDomains() {
	c.Lists = &ListService{c}
	c.Contacts = &ContactService{c}
	c.Imports = &ImportService{c}
	c.Batches = &BatchService{c}
	c.Exports = &ExportService{c}
	c.Projects = &ProjectService{c}
	c.Webhooks = &WebhookService{c}
	c.Properties = &PropertyService{c}
	c.Triggers = &TriggerService{c}
	c.Entities = &EntityService{c}
	c.Resources = &ResourceService{c}
}
