package emulator

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
	"github.com/rms-labs/terraform-provider-rms/internal/emulator/state"
)

// The contacts of a list and their subscription status, as the interface's
// "Contacts and lists" table gives them. There is no DELETE of one contact:
// the interface shows none. Contacts leave a list when the list is deleted
// (or, later, through a replace import). The handlers only translate HTTP;
// the rules are in state/contacts_store.go.

// contactsBase is the path of a list's contacts.
const contactsBase = "/rest/{customerid}/lists/{id}/contacts"

func (s *contactsAPI) registerContacts() {
	s.handleJSON("GET "+contactsBase, s.listContacts)
	s.handleJSON("POST "+contactsBase, s.createContact)
	s.handleJSON("GET "+contactsBase+"/{originalId}", s.getContact)
	s.handleJSON("PUT "+contactsBase+"/{originalId}", s.updateContact)
	s.handleJSON("PUT "+contactsBase+"/{originalId}/subscriptionstatus", s.putSubscriptionStatus)
}

// listIDOf reads the list id of the path; an id that cannot exist is a 404
// like an unknown one.
func listIDOf(r *http.Request) (int64, *apierr.Error) {
	id, ok := parseID(r.PathValue("id"))
	if !ok {
		return 0, apierr.Errorf(http.StatusNotFound, "no list with id %q", r.PathValue("id"))
	}
	return id, nil
}

func (s *contactsAPI) listContacts(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := listIDOf(r)
	if err != nil {
		return err
	}
	page, pageSize, err := s.pageParams(r)
	if err != nil {
		return err
	}
	p, err := s.store.Contacts.Page(listID, pageOffset(page, pageSize), pageSize)
	if err != nil {
		return err
	}
	keys := p.Keys
	if s.opts.Wire.Has(WirePropertiesByID) {
		keys = keysByID(keys)
	}
	s.setTotal(w, p.Total)
	// A page of contacts is the emulator's most frequent answer to a large
	// list: written straight from the stored contacts into a reused buffer
	// (state/contact_page.go says why).
	buf := s.pageBuffer()
	*buf = state.AppendContactsPageJSON((*buf)[:0], p.Contacts, keys, !s.opts.Wire.Has(WireNoStatuses))
	s.writeJSONBody(w, http.StatusOK, *buf)
	s.pages.Put(buf)
	return nil
}

func (s *contactsAPI) createContact(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := listIDOf(r)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	in, err := contactInputOf(body, false)
	if err != nil {
		return err
	}
	if in.OriginalID == "" {
		return apierr.FieldError("originalId", "originalId is mandatory")
	}
	in = s.contactCreateInput(in)
	if s.opts.Wire.Has(WireContactUpsert) {
		before := s.store.Contacts.Ref(listID, in.OriginalID)
		c, created, err := s.store.Contacts.Upsert(listID, in, s.now(), true, callCause(r))
		if err != nil {
			return err
		}
		s.emitContactChange(listID, before, s.store.Contacts.Ref(listID, c.OriginalID))
		if !created {
			s.writeJSON(w, http.StatusOK, s.presentContact(c))
			return nil
		}
		s.writeCreatedContact(w, listID, c)
		return nil
	}
	c, err := s.store.Contacts.Create(listID, in, s.now(), callCause(r))
	if err != nil {
		if err.Status == http.StatusConflict && s.opts.Wire.Has(WireContactConflict400) {
			return apierr.FieldError("originalId", "originalId already exists in this list")
		}
		return err
	}
	s.emitContactChange(listID, nil, s.store.Contacts.Ref(listID, c.OriginalID))
	s.writeCreatedContact(w, listID, c)
	return nil
}

// writeCreatedContact answers 201 with a new contact and its Location.
func (s *contactsAPI) writeCreatedContact(w http.ResponseWriter, listID int64, c state.ContactView) {
	w.Header().Set("Location", "/rest/"+strconv.FormatInt(s.opts.CustomerID, 10)+"/lists/"+strconv.FormatInt(listID, 10)+"/contacts/"+url.PathEscape(c.OriginalID))
	s.writeJSON(w, http.StatusCreated, s.presentContact(c))
}

func (s *contactsAPI) getContact(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := listIDOf(r)
	if err != nil {
		return err
	}
	c, err := s.store.Contacts.Get(listID, r.PathValue("originalId"))
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, s.presentContact(c))
	return nil
}

// updateContact merges the body's properties into the contact: each key
// replaces that attribute's value, null removes it, keys left out keep their
// values. status and mobileStatus in the body are ignored: they change only
// through subscriptionstatus, as the interface's transition table says.
func (s *contactsAPI) updateContact(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := listIDOf(r)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	in, err := contactInputOf(body, true)
	if err != nil {
		return err
	}
	originalID := r.PathValue("originalId")
	if in.OriginalID != "" && in.OriginalID != originalID {
		return apierr.FieldError("originalId", "originalId identifies the contact and cannot be changed (path %q, body %q)", originalID, in.OriginalID)
	}
	before := s.store.Contacts.Ref(listID, originalID)
	c, err := s.store.Contacts.UpdateProperties(listID, originalID, in.Props, s.now())
	if err != nil {
		return err
	}
	s.emitContactChange(listID, before, s.store.Contacts.Ref(listID, originalID))
	s.writeJSON(w, http.StatusOK, s.presentContact(c))
	return nil
}

// putSubscriptionStatus applies a SubscriptionStatusDto; either field may be
// left out (or null) to keep that state, but not both.
func (s *contactsAPI) putSubscriptionStatus(w http.ResponseWriter, r *http.Request) *apierr.Error {
	listID, err := listIDOf(r)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	status, err := optionalString(body, "status")
	if err != nil {
		return err
	}
	mobileStatus, err := optionalString(body, "mobileStatus")
	if err != nil {
		return err
	}
	if status == "" && mobileStatus == "" {
		return apierr.FieldError("status", "give status, mobileStatus or both (SUBSCRIBED or UNSUBSCRIBED)")
	}
	before := s.store.Contacts.Ref(listID, r.PathValue("originalId"))
	c, err := s.store.Contacts.SetStatus(listID, r.PathValue("originalId"), status, mobileStatus, s.now(), callCause(r))
	if err != nil {
		return err
	}
	s.emitContactChange(listID, before, s.store.Contacts.Ref(listID, r.PathValue("originalId")))
	s.writeJSON(w, http.StatusOK, s.presentContact(c))
	return nil
}

// contactInputOf reads a contact body. On update, status and mobileStatus
// are ignored and a null property value removes the value; on create a null
// property value is the same as leaving the key out.
func contactInputOf(body map[string]any, update bool) (state.ContactInput, *apierr.Error) {
	var in state.ContactInput
	if v, ok := body["originalId"]; ok && v != nil {
		s, isString := v.(string)
		if !isString {
			return in, apierr.FieldError("originalId", "originalId must be a string")
		}
		in.OriginalID = s
	}
	if v, ok := body["properties"]; ok && v != nil {
		raw, isObject := v.(map[string]any)
		if !isObject {
			return in, apierr.FieldError("properties", "properties must be an object from attribute name or id to a string value")
		}
		in.Props = make(map[string]*string, len(raw))
		for k, pv := range raw {
			if pv == nil {
				if update {
					in.Props[k] = nil
				}
				continue
			}
			s, isString := pv.(string)
			if !isString {
				return in, apierr.FieldError("properties."+k, "the value of property %q must be a string", k)
			}
			in.Props[k] = &s
		}
	}
	if update {
		return in, nil
	}
	var err *apierr.Error
	if in.Status, err = optionalString(body, "status"); err != nil {
		return in, err
	}
	if in.MobileStatus, err = optionalString(body, "mobileStatus"); err != nil {
		return in, err
	}
	return in, nil
}

// optionalString reads a string field that may be absent or null ("").
func optionalString(body map[string]any, field string) (string, *apierr.Error) {
	v, ok := body[field]
	if !ok || v == nil {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", apierr.FieldError(field, "%s must be a string", field)
	}
	if field == "status" || field == "mobileStatus" {
		if !state.ValidStatus(s) {
			return "", apierr.FieldError(field, "%s must be SUBSCRIBED or UNSUBSCRIBED, got %q", field, s)
		}
	}
	return s, nil
}
