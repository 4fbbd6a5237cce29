package nl2sql

import (
	"bufio"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
	rq, err := e.newRequest(ctx, nil, nil)
	if err != nil {
		return err
	}
	st := rq.st
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

// LoadIndex reads an index written by SaveIndex and returns the options
// that make an Engine use it (its catalog, value index and store) instead of
// introspecting and embedding. Refresh re-reads the live catalog and
// re-indexes what changed.
//
// Its errors are *Error of class ClassConfig; one for data that is not
// such an index also matches ErrBadIndex.
func LoadIndex(r io.Reader) (_ []Option, err error) {
	ix, err := loadIndex(r)
	if err != nil {
		return nil, err
	}
	return ix.options(), nil
}

// loadedIndex is what an index file holds.
type loadedIndex struct {
	cat    *schema.Catalog
	values *link.ValueIndex // nil when the value index is off
	store  *retrieve.MemoryStore
}

// options make an Engine use ix.
func (ix *loadedIndex) options() []Option {
	opts := []Option{WithCatalog(ix.cat)}
	if ix.values != nil {
		opts = append(opts, withValueIndexData(ix.values))
	} else {
		opts = append(opts, WithValueIndex(false))
	}
	return append(opts, WithStore(ix.store))
}

// loadIndex reads an index (see LoadIndex, whose errors it returns).
func loadIndex(r io.Reader) (_ *loadedIndex, err error) {
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
	ix := &loadedIndex{cat: &schema.Catalog{}}
	if err := json.Unmarshal(h.Catalog, ix.cat); err != nil {
		return nil, fmt.Errorf("%w: catalog: %v", ErrBadIndex, err)
	}
	if ix.cat.Fingerprint() != h.Fingerprint {
		return nil, fmt.Errorf("%w: catalog does not match its fingerprint", ErrBadIndex)
	}
	if len(h.Values) > 0 {
		ix.values = &link.ValueIndex{}
		if err := json.Unmarshal(h.Values, ix.values); err != nil {
			return nil, fmt.Errorf("%w: value index: %v", ErrBadIndex, err)
		}
	}
	if ix.store, err = retrieve.LoadMemoryStore(br); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadIndex, err)
	}
	return ix, nil
}

// WithCatalog makes the engine use cat instead of introspecting at Prepare
// (Refresh still reads the live catalog).
func WithCatalog(cat *schema.Catalog) Option { return optionFunc(func(c *config) { c.catalog = cat }) }

func withValueIndexData(vi *link.ValueIndex) Option {
	return optionFunc(func(c *config) { c.valueIndex, c.values = vi, true })
}
