package nl2sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/nl2sqlgo/nl2sql/internal/atomicfile"
	"github.com/nl2sqlgo/nl2sql/retrieve"
)

// indexFile is an engine's tie to the index file LoadIndexFile read: the
// changes to its knowledge not yet written there, and what it last saw of
// the file.
type indexFile struct {
	// syncing makes this process's reads and writes of the file one at a
	// time (the file's lock does it across processes).
	syncing sync.Mutex
	// changing is held (shared) by Learn and Forget while they change the
	// knowledge and note the change, and (exclusive) by a sync while it
	// merges, so a change is either in what it writes or still pending.
	changing sync.RWMutex
	mu       sync.Mutex // guards pending: Learns note theirs side by side
	pending  []knowledgeChange
	seen     os.FileInfo // the file as last read or written
}

// knowledgeChange is one Learn (k) or Forget (forget, an ID) not yet in
// the file.
type knowledgeChange struct {
	k      Knowledge
	forget string
}

// LoadIndexFile reads the index file at path (see LoadIndex; a symlink is
// followed) and returns the options that make an Engine use it and keep its
// knowledge there: every Learn and Forget of that engine writes the change
// into the file before it returns. Reading takes no lock (the file is
// always whole), so a read-only index works. The write holds the file's lock
// (path+".lock", flock), reads what other writers stored since (other
// processes, other engines), replays this engine's changes on it in order,
// and replaces the file atomically (a temporary file beside it, synced,
// renamed over it; a symlink stays a symlink); the engine takes on what
// the others learnt and forgot. So an acknowledged change survives a
// restart, a concurrent writer and a kill -9 of any writer; a forgotten
// item stays forgotten unless a writer learns it again. Knowledge and
// Forget read the file again when it changed, so they list what others
// taught too. The catalog and schema index written are the engine's own.
func LoadIndexFile(ctx context.Context, path string) (_ []Option, err error) {
	defer finish(ctx, &err)
	switch {
	case ctx == nil:
		return nil, &Error{Class: ClassInput, Message: "nil context (pass context.Background() or context.TODO())"}
	case path == "":
		return nil, &Error{Class: ClassInput, Message: "LoadIndexFile needs a file name (got \"\")"}
	}
	target, err := atomicfile.Target(path)
	if err != nil {
		return nil, fileError("reading the index", path, err)
	}
	// No lock: writers replace the file whole (atomicfile.Write).
	ix, _, err := readIndexFile(target)
	if err != nil {
		return nil, err
	}
	if ix == nil {
		return nil, fileError("reading the index", path, fs.ErrNotExist)
	}
	return append(ix.options(), optionFunc(func(c *config) { c.indexFile = path })), nil
}

// readIndexFile reads the index at target: nil and no error when there is
// no file.
func readIndexFile(target string) (*loadedIndex, os.FileInfo, error) {
	f, err := os.Open(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fileError("reading the index", target, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, fileError("reading the index", target, err)
	}
	ix, err := loadIndex(f)
	return ix, fi, err
}

// fileError is the *Error of a file the index could not be read from or
// written to.
func fileError(what, path string, err error) error {
	var ne *Error
	if err == nil || errors.As(err, &ne) {
		return err // nil, or the engine's own (finish reports a context's end)
	}
	return &Error{Class: ClassConfig, Message: fmt.Sprintf("%s %s failed", what, path), Err: err}
}

// SaveIndexFile writes the index (SaveIndex) to path (its symlink's target)
// atomically and under its lock, as LoadIndexFile describes: a failure
// never leaves a truncated index where a good one was, and no knowledge in
// the file is lost. For the file the engine was loaded from (LoadIndexFile)
// it takes on what other writers stored there since, with its own changes
// replayed on it; for another index file, the knowledge it holds that the
// engine lacks is kept (the engine's wins for an ID both have), so
// re-indexing into an index file keeps what it was taught.
func (e *Engine) SaveIndexFile(ctx context.Context, path string) (err error) {
	defer finish(ctx, &err)
	if err := e.usable(ctx); err != nil {
		return err
	}
	if path == "" {
		return &Error{Class: ClassInput, Message: "SaveIndexFile needs a file name (got \"\")"}
	}
	if e.cfg.indexFile != "" && sameFile(path, e.cfg.indexFile) {
		return e.syncIndexFile(ctx, syncWrite)
	}
	if _, err := e.state(ctx); err != nil {
		return err
	}
	e.file.syncing.Lock()
	defer e.file.syncing.Unlock()
	return e.mergeInto(ctx, path, true, false, e.ownKnowledge)
}

// ownKnowledge is all the engine knows as changes (learnt), by ID; the
// caller holds e.file.changing.
func (e *Engine) ownKnowledge() []knowledgeChange {
	e.know.mu.RLock()
	defer e.know.mu.RUnlock()
	out := make([]knowledgeChange, 0, len(e.know.items))
	for _, id := range slices.Sorted(maps.Keys(e.know.items)) {
		out = append(out, knowledgeChange{k: e.know.items[id]})
	}
	return out
}

// sameFile reports whether two paths name one file (through symlinks).
func sameFile(a, b string) bool {
	ta, erra := atomicfile.Target(a)
	tb, errb := atomicfile.Target(b)
	return erra == nil && errb == nil && ta == tb
}

// How syncIndexFile goes about it.
type syncMode int

const (
	syncPending syncMode = iota // write when there are pending changes, else nothing
	syncRead                    // take on what others wrote (when the file changed); write nothing
	syncWrite                   // write, changes or not
)

// noteChange records a change of a Learn or Forget for the index file (a
// no-op without one); the caller holds e.file.changing (shared).
func (e *Engine) noteChange(c knowledgeChange) {
	if e.cfg.indexFile != "" {
		e.file.mu.Lock()
		e.file.pending = append(e.file.pending, c)
		e.file.mu.Unlock()
	}
}

// syncIndexFile brings the engine and its index file (LoadIndexFile) in
// step: under the file's lock it reads the file, replays the pending
// changes on its knowledge, makes the result the engine's, and (unless
// mode is syncRead) writes the engine's index there.
func (e *Engine) syncIndexFile(ctx context.Context, mode syncMode) error {
	path := e.cfg.indexFile
	if path == "" {
		return nil
	}
	e.file.syncing.Lock()
	defer e.file.syncing.Unlock()
	idle := len(e.file.pendingChanges()) == 0
	if idle && mode == syncPending {
		return nil
	}
	write := mode == syncWrite || mode == syncPending
	if idle && mode == syncRead {
		if target, err := atomicfile.Target(path); err == nil && e.file.unchanged(target) {
			return nil // nobody wrote it since
		}
	}
	return e.mergeInto(ctx, path, write, true, e.file.pendingChanges)
}

// takeOnOthers reads the index file again when it changed, so the engine
// has what other writers taught and forgot. It is best effort: a file that
// cannot be read (it is not overwritten then) is logged, and the engine
// answers with what it has.
func (e *Engine) takeOnOthers(ctx context.Context) {
	if err := e.syncIndexFile(ctx, syncRead); err != nil && ctx.Err() == nil {
		e.cfg.logger.WarnContext(ctx, "nl2sql: the index file could not be read again; using the knowledge this engine has", "err", err)
	}
}

// unchanged reports whether target is the file this engine last read or
// wrote (a rename makes a new file: another writer's write is seen).
func (f *indexFile) unchanged(target string) bool {
	fi, err := os.Stat(target)
	return err == nil && f.seen != nil && os.SameFile(fi, f.seen) && fi.ModTime().Equal(f.seen.ModTime()) && fi.Size() == f.seen.Size()
}

// pendingChanges are the changes not yet written.
func (f *indexFile) pendingChanges() []knowledgeChange {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.pending)
}

// mergeInto is the locked read-modify-write of the index file at path:
// under its lock (to write; a read takes none) it reads the file,
// replays changes() on its knowledge, makes the result the engine's and,
// with write, writes the engine's index there. bound says path is the
// engine's own index file: its pending changes are then cleared once
// written, and what it saw of the file noted. The caller holds
// e.file.syncing.
func (e *Engine) mergeInto(ctx context.Context, path string, write, bound bool, changes func() []knowledgeChange) error {
	target, err := atomicfile.Target(path)
	if err != nil {
		return fileError("writing the index to", path, err)
	}
	if write { // a read needs no lock: writers replace the file whole
		unlock, err := atomicfile.Lock(ctx, target)
		if err != nil {
			return fileError("writing the index to", path, err)
		}
		defer unlock()
		_ = atomicfile.RemoveStale(target) // best effort: a leftover is only clutter
	}
	var ix *loadedIndex
	fi := e.file.seen
	if !bound || !e.file.unchanged(target) {
		// Unchanged, the file holds what the engine had at its last sync,
		// and the engine has had its changes since: nothing to take on.
		ix, fi, err = readIndexFile(target)
		if err != nil && (bound || !errors.Is(err, ErrBadIndex)) {
			return err // the engine's index file unreadable: not overwritten
		}
	}
	e.file.changing.Lock()
	terms, err := e.takeOn(ctx, ix, changes())
	if err == nil && write {
		err = atomicfile.Write(target, func(w io.Writer) error { return e.SaveIndex(ctx, w) })
		if err == nil {
			fi, err = os.Stat(target)
		}
		if err == nil && bound {
			e.file.mu.Lock()
			e.file.pending = nil // changing held: no Learn noted one since changes()
			e.file.mu.Unlock()
		}
	}
	switch {
	case bound && err == nil:
		e.file.seen = fi
	case !bound:
		// What it took on from another file is in no pending change: the
		// next write of its own file reads that file again.
		e.file.seen = nil
	}
	e.file.changing.Unlock()
	if err != nil {
		return fileError("writing the index to", path, err)
	}
	if terms {
		return e.rebuild(ctx, true)
	}
	return nil
}

// takeOn makes the engine's knowledge the file's (ix; nil: no file, the
// engine's stands) with the pending changes replayed on it, and reports
// whether a term changed. The caller holds e.file.changing.
func (e *Engine) takeOn(ctx context.Context, ix *loadedIndex, pending []knowledgeChange) (terms bool, err error) {
	if ix == nil {
		return false, nil
	}
	st, err := e.state(ctx)
	if err != nil {
		return false, err
	}
	theirs, err := storedKnowledge(ctx, ix.store)
	if err != nil {
		return false, err
	}
	want := make(map[string]Knowledge, len(theirs))
	for _, k := range theirs {
		want[k.ID] = k
	}
	for _, c := range pending {
		if c.forget != "" {
			delete(want, c.forget)
		} else {
			want[c.k.ID] = c.k
		}
	}
	added, dropped, terms := e.knowledgeDiff(want)
	upsert := make([]retrieve.Document, 0, len(added))
	for _, k := range added {
		upsert = append(upsert, k.document())
	}
	remove := make([]string, 0, len(dropped))
	for _, k := range dropped {
		remove = append(remove, k.ID)
	}
	store := st.retriever.Store()
	if len(upsert) > 0 {
		if err := store.Upsert(ctx, upsert); err != nil {
			return false, err
		}
	}
	if len(remove) > 0 {
		if err := store.Delete(ctx, remove); err != nil {
			return false, err
		}
	}
	e.adopt(ctx, want)
	return terms, nil
}
