package state

import "hash/maphash"

// A list finds its contacts by originalId and by e-mail address through
// tables of positions in its order, not Go maps: a map of ten million
// string keys costs 30 to 60 bytes per entry for its slots alone, a table
// of uint32 positions 8 to 16. The key of a position is read from the
// contact there, so the table holds no strings; the e-mail table holds one
// entry per contact with an address, several for an address several
// contacts share.

// posIndex is an open-addressing hash table (linear probing, deletion by
// shifting back) of positions in a list's order. A slot holds position+1;
// 0 is empty. It is at most half full, so a lookup probes few slots.
type posIndex struct {
	slots []uint32
	n     int
	seed  maphash.Seed
}

// hash is the hash of key in x's table; any value before the table holds
// anything (its seed is made with its first slots).
func (x *posIndex) hash(key string) uint64 {
	if len(x.slots) == 0 {
		return 0
	}
	return maphash.String(x.seed, key)
}

// home is the slot where a key of hash h starts its probe.
func (x *posIndex) home(h uint64) int { return int(h & uint64(len(x.slots)-1)) }

// each calls fn with each position whose key has hash h, in probe order,
// until fn returns false. fn tells a position of the key from one that
// only shares its probe.
func (x *posIndex) each(h uint64, fn func(pos int) bool) {
	if x.n == 0 {
		return
	}
	mask := len(x.slots) - 1
	for i := x.home(h); x.slots[i] != 0; i = (i + 1) & mask {
		if !fn(int(x.slots[i] - 1)) {
			return
		}
	}
}

// insert adds pos under hash h; keyOf gives the key of every position the
// table holds, should it grow.
func (x *posIndex) insert(h uint64, pos int, keyOf func(pos int) string) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(keyOf)
		h = x.hash(keyOf(pos))
	}
	mask := len(x.slots) - 1
	i := x.home(h)
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = uint32(pos) + 1
	x.n++
}

// reserve makes an empty table that holds n positions without growing.
func (x *posIndex) reserve(n int) {
	size := 8
	for size < 2*(n+1) {
		size *= 2
	}
	*x = posIndex{slots: make([]uint32, size), seed: maphash.MakeSeed()}
}

// grow doubles the table (makes the first one) and puts every position
// in it again.
func (x *posIndex) grow(keyOf func(pos int) string) {
	old := x.slots
	if len(old) == 0 {
		x.seed = maphash.MakeSeed()
	}
	x.slots = make([]uint32, max(8, 2*len(old)))
	mask := len(x.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := x.home(x.hash(keyOf(int(s - 1))))
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
	}
}

// remove takes pos, held under hash h, out of the table; keyOf gives the
// keys of the positions that follow it in its probe, which may move back.
func (x *posIndex) remove(h uint64, pos int, keyOf func(pos int) string) {
	if x.n == 0 {
		return
	}
	mask := len(x.slots) - 1
	i := x.home(h)
	for ; x.slots[i] != uint32(pos)+1; i = (i + 1) & mask {
		if x.slots[i] == 0 {
			return // not held
		}
	}
	x.slots[i] = 0
	x.n--
	// Shift back each entry after the gap whose probe passes it, so that
	// no probe meets an empty slot before its entry.
	for j := (i + 1) & mask; x.slots[j] != 0; j = (j + 1) & mask {
		k := x.home(x.hash(keyOf(int(x.slots[j] - 1))))
		if (j > i && (k <= i || k > j)) || (j < i && k <= i && k > j) {
			x.slots[i], x.slots[j] = x.slots[j], 0
			i = j
		}
	}
}
