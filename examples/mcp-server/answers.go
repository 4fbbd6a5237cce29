package main

import (
	"crypto/rand"
	"sync"
)

// keptAnswers is how many nl_query answers the server remembers for learn.
const keptAnswers = 1000

// answer is an nl_query answer a host may confirm later (learn {id}).
type answer struct {
	Question, SQL string
	Scope         string // the call's scope: the SQL is checked in it when confirmed
	Caller        string // whose answer it is (--identity): only its caller may confirm it
}

// answers remembers the last few nl_query answers by an opaque ID, in
// memory only: the oldest is forgotten when a new one would exceed the
// bound, and all of them when the server stops.
type answers struct {
	mu   sync.Mutex
	byID map[string]answer
	ring []string // IDs in the order they were kept; next is the oldest slot
	next int
}

func newAnswers(n int) *answers {
	return &answers{byID: make(map[string]answer, n), ring: make([]string, n)}
}

// keep remembers a and returns its ID.
func (s *answers) keep(a answer) string {
	id := "ans_" + rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.ring[s.next]; old != "" {
		delete(s.byID, old)
	}
	s.ring[s.next], s.byID[id] = id, a
	s.next = (s.next + 1) % len(s.ring)
	return id
}

// get returns the answer with this ID, if it is still kept.
func (s *answers) get(id string) (answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	return a, ok
}
