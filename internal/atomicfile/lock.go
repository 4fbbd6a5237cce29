package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// LockSuffix names the lock file beside a file: target+LockSuffix. The
// file itself cannot carry the lock, since Write replaces it by a rename
// (a writer would lock the old inode while the next one locks the new).
const LockSuffix = ".lock"

// lockPoll is how often Lock tries again while another process holds it.
const lockPoll = 5 * time.Millisecond

// Lock takes target's lock (an exclusive flock on target+LockSuffix,
// created if missing and never removed) for a read-modify-write of it. It
// waits until it is granted or ctx ends; the kernel releases it when the
// process ends, even by kill -9. target should be a Target, so every path
// to the file (a symlink, the file itself) takes the same lock. A reader
// needs none: Write replaces the file whole, so it reads the old or the
// new (and a read-only folder stays readable).
func Lock(ctx context.Context, target string) (unlock func(), err error) {
	f, err := os.OpenFile(target+LockSuffix, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: the lock file: %w", ErrCreate, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			// Closing the descriptor releases the lock.
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", target+LockSuffix, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the lock of %s: %w", target, context.Cause(ctx))
		case <-time.After(lockPoll):
		}
	}
}
