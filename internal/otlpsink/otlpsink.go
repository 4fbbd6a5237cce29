// Package otlpsink is an OTLP/HTTP receiver for tests: it keeps what is
// posted to each signal's path (/v1/traces, /v1/metrics), so a test can
// look for a span's or a metric's name in the protobuf bodies (their
// strings are stored as is).
package otlpsink

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Sink is a running receiver; URL is what OTEL_EXPORTER_OTLP_ENDPOINT
// takes.
type Sink struct {
	*httptest.Server
	mu     sync.Mutex
	bodies map[string][]byte
}

// New starts a receiver; it is closed when the test ends.
func New(t testing.TB) *Sink {
	s := &Sink{bodies: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies[r.URL.Path] = append(s.bodies[r.URL.Path], b...)
		s.mu.Unlock()
	}))
	t.Cleanup(s.Close)
	return s
}

// Has reports whether what was posted to path holds text.
func (s *Sink) Has(path, text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.bodies[path], []byte(text))
}

// Len is how many bytes were posted to every path.
func (s *Sink) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, b := range s.bodies {
		n += len(b)
	}
	return n
}
