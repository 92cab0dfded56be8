package state

import "strings"

// What the console reads of a list without looking at each of its
// contacts: the contacts counted by status, and the contacts of each e-mail
// address. Every write of a list's contacts goes through ListContacts.put
// (or add, for a contact known to be new), which keeps both, so that the
// console answers in the same time for a list of ten contacts or of a
// million. The e-mail index costs about 100 bytes per contact that has an
// address.

// EmailAttributeID is the standard attribute "email" (StandardProperties),
// the address the console finds contacts by.
const EmailAttributeID = 1

// listIndex is kept beside a list's contacts.
type listIndex struct {
	email, mobile ChannelCounts
	// byEmail maps a lower-case e-mail address to the originalIds of the
	// contacts that have it, in no order.
	byEmail map[string][]string
}

// emailOf is c's e-mail address, lower case, or "".
func emailOf(c *Contact) string {
	v, _ := c.Props.lookup(EmailAttributeID)
	return strings.ToLower(v)
}

func (x *listIndex) add(c *Contact, email string) {
	x.email.add(c.Status, 1)
	x.mobile.add(c.MobileStatus, 1)
	if email == "" {
		return
	}
	if x.byEmail == nil {
		x.byEmail = map[string][]string{}
	}
	x.byEmail[email] = append(x.byEmail[email], c.OriginalID)
}

func (x *listIndex) remove(c *Contact, email string) {
	x.email.add(c.Status, -1)
	x.mobile.add(c.MobileStatus, -1)
	ids := x.byEmail[email]
	for i, oid := range ids {
		if oid == c.OriginalID {
			ids[i] = ids[len(ids)-1]
			ids = ids[:len(ids)-1]
			break
		}
	}
	if len(ids) == 0 {
		delete(x.byEmail, email)
	} else {
		x.byEmail[email] = ids
	}
}

// put stores c under its originalId, in place of the contact it replaces,
// if any; the caller appends a new one to Order.
func (lc *ListContacts) put(c *Contact) {
	old := lc.ByID[c.OriginalID]
	lc.ByID[c.OriginalID] = c
	if old == nil {
		lc.idx.add(c, emailOf(c))
		return
	}
	if old.Props == c.Props { // the common case: a change of status
		lc.idx.email.add(old.Status, -1)
		lc.idx.mobile.add(old.MobileStatus, -1)
		lc.idx.email.add(c.Status, 1)
		lc.idx.mobile.add(c.MobileStatus, 1)
		return
	}
	lc.idx.remove(old, emailOf(old))
	lc.idx.add(c, emailOf(c))
}

// indexNew notes c, just stored as a new contact, in the index.
func (lc *ListContacts) indexNew(c *Contact) { lc.idx.add(c, emailOf(c)) }
