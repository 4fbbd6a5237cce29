package nl2sql

import (
	"bufio"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sqlgo/nl2sql/internal/atomicfile"
	"github.com/nl2sqlgo/nl2sql/link"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/schema"
)

const indexMagic = "nl2sql-index/1"

// ErrBadIndex is wrapped by the error (an *Error of class ClassConfig)
// LoadIndex returns for a file that is not a saved index (or of another
// format version).
var ErrBadIndex = errors.New("nl2sql: not an index file")

// indexHeader precedes the memory store in an index file.
type indexHeader struct {
	Magic       string
	Fingerprint string
	Catalog     []byte // schema.Catalog as JSON
	Values      []byte // link.ValueIndex as JSON; empty when the value index is off
}

// SaveIndex writes what Prepare built (catalog, value index, and the schema
// index of an in-memory store) so another process can start without
// introspecting or embedding: see LoadIndex. A pgvector store is persistent
// already; saving an engine that uses one is an error.
func (e *Engine) SaveIndex(ctx context.Context, w io.Writer) (err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return err
	}
	st, err := e.state(ctx)
	if err != nil {
		return err
	}
	if w == nil {
		return &Error{Class: ClassInput, Message: "SaveIndex needs a writer (got nil)"}
	}
	mem, ok := st.retriever.Store().(*retrieve.MemoryStore)
	if !ok {
		return &Error{Class: ClassConfig, Message: "SaveIndex needs the in-memory store"}
	}
	failed := func(err error) error {
		return &Error{Class: ClassConfig, Message: "writing the index failed", Err: err}
	}
	h := indexHeader{Magic: indexMagic, Fingerprint: st.cat.Fingerprint()}
	if h.Catalog, err = json.Marshal(st.cat); err != nil {
		return failed(err)
	}
	if st.values != nil {
		if h.Values, err = json.Marshal(st.values); err != nil {
			return failed(err)
		}
	}
	bw := bufio.NewWriter(w)
	if err := gob.NewEncoder(bw).Encode(h); err != nil {
		return failed(err)
	}
	if err := bw.Flush(); err != nil {
		return failed(err)
	}
	if err := mem.Save(w); err != nil {
		return failed(err)
	}
	return nil
}

// SaveIndexFile writes the index (SaveIndex) to path atomically: into a
// temporary file beside it, synced, then renamed over it, so a failure never
// leaves a truncated index where a good one was. Knowledge learnt since the
// index was loaded (Learn) is part of what it writes.
func (e *Engine) SaveIndexFile(ctx context.Context, path string) (err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return err
	}
	if path == "" {
		return &Error{Class: ClassInput, Message: "SaveIndexFile needs a file name (got \"\")"}
	}
	err = atomicfile.Write(path, func(w io.Writer) error { return e.SaveIndex(ctx, w) })
	var ne *Error
	if err != nil && !errors.As(err, &ne) {
		// The file system's refusal (no such folder, a directory there).
		return &Error{Class: ClassConfig, Message: fmt.Sprintf("writing the index to %s failed", path), Err: err}
	}
	return err
}

// LoadIndex reads an index written by SaveIndex and returns the options
// that make an Engine use it (its catalog, value index and store) instead of
// introspecting and embedding. Refresh re-reads the live catalog and
// re-indexes what changed.
//
// Its errors are *Error of class ClassConfig; one for data that is not
// such an index also matches ErrBadIndex.
func LoadIndex(r io.Reader) (_ []Option, err error) {
	defer func() {
		if err != nil {
			err = &Error{Class: ClassConfig, Message: "the index could not be read", Err: err}
			coded(&err)
		}
	}()
	if r == nil {
		return nil, fmt.Errorf("%w (no reader)", ErrBadIndex)
	}
	br := bufio.NewReader(r)
	var h indexHeader
	if err := gob.NewDecoder(br).Decode(&h); err != nil || h.Magic != indexMagic {
		return nil, fmt.Errorf("%w (%v)", ErrBadIndex, err)
	}
	var cat schema.Catalog
	if err := json.Unmarshal(h.Catalog, &cat); err != nil {
		return nil, fmt.Errorf("%w: catalog: %v", ErrBadIndex, err)
	}
	if cat.Fingerprint() != h.Fingerprint {
		return nil, fmt.Errorf("%w: catalog does not match its fingerprint", ErrBadIndex)
	}
	opts := []Option{WithCatalog(&cat)}
	if len(h.Values) > 0 {
		var vi link.ValueIndex
		if err := json.Unmarshal(h.Values, &vi); err != nil {
			return nil, fmt.Errorf("%w: value index: %v", ErrBadIndex, err)
		}
		opts = append(opts, withValueIndexData(&vi))
	} else {
		opts = append(opts, WithValueIndex(false))
	}
	store, err := retrieve.LoadMemoryStore(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadIndex, err)
	}
	return append(opts, WithStore(store)), nil
}

// WithCatalog makes the engine use cat instead of introspecting at Prepare
// (Refresh still reads the live catalog).
func WithCatalog(cat *schema.Catalog) Option { return optionFunc(func(c *config) { c.catalog = cat }) }

func withValueIndexData(vi *link.ValueIndex) Option {
	return optionFunc(func(c *config) { c.valueIndex, c.values = vi, true })
}
