package contactsync

import (
	"hash/fnv"
	"strconv"
)

// Fingerprint is what one listing of a list showed, small enough for
// private state: the plan Terraform makes again inside an apply lists
// again and compares, so that a list changed since the plan's refresh is
// refused rather than counted anew (the counts the plan showed must hold).
// Statuses covers every contact's id and statuses; Props adds the
// properties of the contacts props names (nil: every contact the listing
// kept properties of), as the listing held them. Both are sums of one
// hash per contact, so the listing's order does not matter and no second
// copy of the ids is made.
type Fingerprint struct {
	Count    int    `json:"count"`
	Statuses uint64 `json:"statuses"`
	Props    uint64 `json:"props"`
}

// FingerprintOf is the fingerprint of a listing.
func FingerprintOf(service *ServiceList, props func(id string) bool) Fingerprint {
	f := Fingerprint{Count: service.Len()}
	h := fnv.New64a()
	var buf []byte
	for id, c := range service.All() {
		buf = append(append(append(append(append(buf[:0], id...), 0), c.Email...), 0), c.Mobile...)
		h.Reset()
		_, _ = h.Write(buf)
		f.Statuses += h.Sum64()
		if props != nil && !props(id) {
			continue
		}
		buf = append(buf, 0, sameByte(c.Same))
		for _, k := range SortedKeys(c.Props) {
			buf = append(append(append(append(buf, 0), k...), 0), c.Props[k]...)
		}
		h.Reset()
		_, _ = h.Write(buf)
		f.Props += h.Sum64()
	}
	return f
}

func sameByte(same bool) byte {
	if same {
		return 1
	}
	return 0
}

// String is the fingerprint in a log line.
func (f Fingerprint) String() string {
	return strconv.Itoa(f.Count) + "/" + strconv.FormatUint(f.Statuses, 16) + "/" + strconv.FormatUint(f.Props, 16)
}
