package reducer

import "hash/maphash"

// PMap is a persistent hash map (a small hash array mapped trie). Every
// update returns a new map sharing all untouched nodes with the old one, so a
// State value can be published, read concurrently and never changes.

var pseed = maphash.MakeSeed()

const (
	pbits     = 5
	pmaxDepth = 13 // 13*5 >= 64 bits of hash
)

type pentry[K comparable, V any] struct {
	h uint64
	k K
	v V
}

type pnode[K comparable, V any] struct {
	kids *[32]*pnode[K, V] // non-nil: branch
	ents []pentry[K, V]    // leaf: entries sharing one hash
}

type PMap[K comparable, V any] struct {
	root *pnode[K, V]
}

func phash[K comparable](k K) uint64 { return maphash.Comparable(pseed, k) }

func pidx(h uint64, d int) int { return int((h >> (uint(d) * pbits)) & 31) }

func (m PMap[K, V]) Get(k K) (V, bool) {
	h := phash(k)
	n := m.root
	for d := 0; n != nil; d++ {
		if n.kids == nil {
			for _, e := range n.ents {
				if e.k == k {
					return e.v, true
				}
			}
			break
		}
		n = n.kids[pidx(h, d)]
	}
	var z V
	return z, false
}

func (m PMap[K, V]) Set(k K, v V) PMap[K, V] {
	return PMap[K, V]{root: pset(m.root, pentry[K, V]{phash(k), k, v}, 0)}
}

func pset[K comparable, V any](n *pnode[K, V], e pentry[K, V], d int) *pnode[K, V] {
	if n == nil {
		return &pnode[K, V]{ents: []pentry[K, V]{e}}
	}
	if n.kids != nil {
		kids := *n.kids
		i := pidx(e.h, d)
		kids[i] = pset(kids[i], e, d+1)
		return &pnode[K, V]{kids: &kids}
	}
	for i, x := range n.ents {
		if x.k == e.k {
			ents := append([]pentry[K, V](nil), n.ents...)
			ents[i] = e
			return &pnode[K, V]{ents: ents}
		}
	}
	if len(n.ents) == 0 {
		return &pnode[K, V]{ents: []pentry[K, V]{e}}
	}
	if d >= pmaxDepth || n.ents[0].h == e.h {
		ents := append(append([]pentry[K, V](nil), n.ents...), e)
		return &pnode[K, V]{ents: ents}
	}
	b := &pnode[K, V]{kids: new([32]*pnode[K, V])}
	for _, x := range n.ents {
		i := pidx(x.h, d)
		b.kids[i] = pset(b.kids[i], x, d+1)
	}
	i := pidx(e.h, d)
	b.kids[i] = pset(b.kids[i], e, d+1)
	return b
}

func (m PMap[K, V]) Delete(k K) PMap[K, V] {
	r, _ := pdel(m.root, phash(k), k, 0)
	return PMap[K, V]{root: r}
}

func pdel[K comparable, V any](n *pnode[K, V], h uint64, k K, d int) (*pnode[K, V], bool) {
	if n == nil {
		return nil, false
	}
	if n.kids != nil {
		i := pidx(h, d)
		c, ok := pdel(n.kids[i], h, k, d+1)
		if !ok {
			return n, false
		}
		kids := *n.kids
		kids[i] = c
		for _, x := range kids {
			if x != nil {
				return &pnode[K, V]{kids: &kids}, true
			}
		}
		return nil, true
	}
	for i, x := range n.ents {
		if x.k == k {
			if len(n.ents) == 1 {
				return nil, true
			}
			ents := make([]pentry[K, V], 0, len(n.ents)-1)
			ents = append(ents, n.ents[:i]...)
			ents = append(ents, n.ents[i+1:]...)
			return &pnode[K, V]{ents: ents}, true
		}
	}
	return n, false
}

// Range calls f for every entry, in no particular order, until f returns false.
func (m PMap[K, V]) Range(f func(K, V) bool) { prange(m.root, f) }

func prange[K comparable, V any](n *pnode[K, V], f func(K, V) bool) bool {
	if n == nil {
		return true
	}
	if n.kids != nil {
		for _, c := range n.kids {
			if !prange(c, f) {
				return false
			}
		}
		return true
	}
	for _, e := range n.ents {
		if !f(e.k, e.v) {
			return false
		}
	}
	return true
}

func (m PMap[K, V]) Len() int {
	n := 0
	m.Range(func(K, V) bool { n++; return true })
	return n
}

// mutSet and mutDelete write into the existing nodes instead of copying the
// path. They exist only for faults: a structurally shared node mutated in
// place is visible through every State that shares it.
func (m *PMap[K, V]) mutSet(k K, v V) {
	m.root = pmut(m.root, pentry[K, V]{phash(k), k, v}, 0)
}

func pmut[K comparable, V any](n *pnode[K, V], e pentry[K, V], d int) *pnode[K, V] {
	if n == nil {
		return &pnode[K, V]{ents: []pentry[K, V]{e}}
	}
	if n.kids != nil {
		i := pidx(e.h, d)
		n.kids[i] = pmut(n.kids[i], e, d+1)
		return n
	}
	for i := range n.ents {
		if n.ents[i].k == e.k {
			n.ents[i] = e
			return n
		}
	}
	return pset(n, e, d)
}

func (m *PMap[K, V]) mutDelete(k K) {
	h := phash(k)
	n := m.root
	for d := 0; n != nil; d++ {
		if n.kids == nil {
			for i, e := range n.ents {
				if e.k == k {
					n.ents = append(n.ents[:i], n.ents[i+1:]...)
					return
				}
			}
			return
		}
		n = n.kids[pidx(h, d)]
	}
}
