package atomicdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// One lock for a whole output: a revisit process writing a path P holds
// the lock file .P.lock beside it (flock), and everything under P is its
// to write. So a writer of any path checks, besides its own lock, the
// locks of every directory that contains it (another process writing
// OUT, such as revisit run, owns OUT/dataset) and every lock inside it
// (a process writing OUT/dataset makes OUT busy for revisit run). Paths
// are compared with their symbolic links resolved, and lock files are
// kept beside the resolved path, so that OUT and link/ (a link to OUT's
// parent) share one lock. The locks of the checking process itself do not
// count: run's stages write inside the OUT it holds. Each writer checks
// after taking its own lock, so of two writers starting together at least
// one sees the other.

// lockPIDPrefix starts the line of a lock file naming the process that
// holds it, for messages.
const lockPIDPrefix = "pid "

// lockHolderPrefix starts the line of a lock file that identifies the
// process holding it (holderID): the locks this process holds are told
// from others' by that line.
const lockHolderPrefix = "holder "

// holderID identifies this process among every process that may share a
// file system with it. Its pid alone does not: a process in another pid
// namespace (a container, a Kubernetes pod writing the same volume) or on
// another host of a network file system may have the same pid. So the pid
// is joined by the pid namespace (Linux: /proc/self/ns/pid), the host's
// name and the time this process started, in nanoseconds. It is set when
// the program starts and never changes.
var holderID = newHolderID()

func newHolderID() string {
	ns, _ := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"; "" elsewhere
	host, _ := os.Hostname()
	return fmt.Sprintf("%s %s %d %d", ns, strconv.Quote(host), os.Getpid(), time.Now().UnixNano())
}

// lockContent is the text of the lock file of the output at canon (a
// resolved absolute path) held by this process.
func lockContent(canon string) string {
	return lockText + canon + "\n" + lockPIDPrefix + strconv.Itoa(os.Getpid()) + "\n" + lockHolderPrefix + holderID + "\n"
}

// ownLock reports whether b, the text of a lock file, is that of a lock
// this process holds (its holder line is holderID).
func ownLock(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, lockHolderPrefix); ok && h == holderID {
			return true
		}
	}
	return false
}

// lockPID reads the pid line of a lock file's text b (0: none).
func lockPID(b []byte) int {
	for _, line := range strings.Split(string(b), "\n") {
		if s, ok := strings.CutPrefix(line, lockPIDPrefix); ok {
			if pid, err := strconv.Atoi(s); err == nil && pid > 0 {
				return pid
			}
		}
	}
	return 0
}

// canonical is the absolute clean path abs with the symbolic links of its
// parent resolved (EvalExisting); its last element is kept as it is (an
// output that is a symbolic link is refused elsewhere).
func canonical(abs string) (string, error) {
	parent, err := EvalExisting(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, filepath.Base(abs)), nil
}

// EvalExisting resolves the symbolic links of the longest existing prefix
// of the absolute path p and joins the rest, so that paths not yet
// created compare with those that exist.
func EvalExisting(p string) (string, error) {
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// busyErr is a path another revisit process is writing: it is ErrBusy
// (errors.Is; exit code 2, like a refused output), said once, naming the
// process and the path it writes.
type busyErr struct{ msg string }

func (e *busyErr) Error() string { return e.msg }
func (e *busyErr) Unwrap() error { return ErrBusy }

// busyError is the busyErr of final (what, as the user wrote it): the
// process pid (0: not known) is writing it (rel ""), other, which
// contains it (rel "contains"), or the lock other inside it.
func busyError(what, final string, pid int, other, rel string) error {
	who := "another revisit process"
	if pid > 0 {
		who += fmt.Sprintf(" (pid %d)", pid)
	}
	var where string
	switch rel {
	case "":
		where = "this output"
	case "contains":
		where = other + ", which contains this output"
	default:
		where = "inside this output (its lock " + other + ")"
	}
	return &busyErr{fmt.Sprintf("%s %s: %s is writing %s (wait for it to finish, or choose another path)", what, final, who, where)}
}

// CheckBusy refuses (ErrBusy) an output path dir that another revisit
// process is writing: its own lock (or a scratch lock of it, such as
// ingest --jobs's) held, the lock of a directory containing it held (any
// ancestor: revisit run writing OUT owns OUT/dataset), or a lock held
// inside it (a process writing OUT/dataset, when dir is OUT). Locks this
// process holds do not count. It looks, and takes no lock.
func CheckBusy(dir, what string) error {
	final := filepath.Clean(dir)
	abs, err := absPath(final, what)
	if err != nil {
		return err
	}
	canon, err := canonical(abs)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, final, err)
	}
	parent, base := filepath.Dir(canon), filepath.Base(canon)
	own := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `(\.[a-z]+)?\.lock$`)
	if ents, err := os.ReadDir(parent); err == nil {
		for _, e := range ents {
			if own.MatchString(e.Name()) {
				if pid, ok := heldElsewhere(filepath.Join(parent, e.Name())); ok {
					return busyError(what, final, pid, "", "")
				}
			}
		}
	}
	if err := ancestorsBusy(canon, what, final); err != nil {
		return err
	}
	return insideBusy(canon, what, final)
}

// ancestorsBusy refuses canon when another process holds the lock of a
// directory that contains it.
func ancestorsBusy(canon, what, final string) error {
	for a := filepath.Dir(canon); filepath.Dir(a) != a; a = filepath.Dir(a) {
		if pid, ok := heldElsewhere(filepath.Join(filepath.Dir(a), "."+filepath.Base(a)+".lock")); ok {
			return busyError(what, final, pid, a, "contains")
		}
	}
	return nil
}

// lockName matches the name of a lock file revisit makes (.NAME.lock,
// .NAME.KIND.lock).
var lockName = regexp.MustCompile(`^\..+\.lock$`)

// insideBusy refuses canon when another process holds a lock inside it
// (a directory; symbolic links are not followed).
func insideBusy(canon, what, final string) error {
	if st, err := os.Lstat(canon); err != nil || !st.IsDir() {
		return nil
	}
	var busy error
	filepath.WalkDir(canon, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner: CheckReplaceable reports it
		}
		if d.Type().IsRegular() && lockName.MatchString(d.Name()) {
			if pid, ok := heldElsewhere(p); ok {
				busy = busyError(what, final, pid, p, "inside")
				return filepath.SkipAll
			}
		}
		return nil
	})
	return busy
}

// Within reports whether path p is dir or lies under it (both cleaned,
// absolute; resolve their symbolic links first, EvalExisting, to compare
// the directories they name).
func Within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
