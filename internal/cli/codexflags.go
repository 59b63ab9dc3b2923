package cli

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/config"
)

// This file holds the flags a Codex user types without thinking, with
// codex's own names and meanings: --search, --add-dir, --yolo
// (--dangerously-bypass-approvals-and-sandbox) and -p/--profile.

// codexFlags are those flags' values (part of SessionOptions).
type codexFlags struct {
	// Search is --search: live web search (codex's web_search = "live").
	Search bool
	// AddDirs are --add-dir DIR values (repeatable): extra writable roots
	// beside the workspace, as given (resolve makes them absolute).
	AddDirs []string
	// Yolo is --dangerously-bypass-approvals-and-sandbox (--yolo):
	// approval never, sandbox danger-full-access.
	Yolo bool
}

// webSearchLive is the override --search passes to the app-server, as
// `codex --search` sets it.
const webSearchLive = `web_search="live"`

// register adds the flags to fs.
func (c *codexFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&c.Search, "search", false, "enable live web search: the model gets codex's web_search tool (-c "+webSearchLive+")")
	fs.StringArrayVar(&c.AddDirs, "add-dir", nil, "let the agent also write to `DIR`, beside the workspace: added to codex's own writable_roots (repeatable; relative to -C; over --ssh or a ws:// --remote, an absolute path there)")
	fs.BoolVar(&c.Yolo, "dangerously-bypass-approvals-and-sandbox", false, "run every command without asking and without a sandbox (-a never -s danger-full-access); only inside a sandbox of your own")
	fs.BoolVar(&c.Yolo, "yolo", false, "short for --dangerously-bypass-approvals-and-sandbox")
}

// validate checks the flags on their own, with the -a and -s values given;
// errors are usage errors.
func (c *codexFlags) validate(approval, sandbox string) error {
	if c.Yolo && (approval != "" || sandbox != "") {
		return &usageError{"--yolo (--dangerously-bypass-approvals-and-sandbox) sets -a never and -s danger-full-access: leave out -a and -s"}
	}
	for _, d := range c.AddDirs {
		if strings.TrimSpace(d) == "" {
			return &usageError{"invalid value \"\" for --add-dir: expected a directory"}
		}
	}
	return nil
}

// policies returns the approval policy and sandbox flags as --yolo makes
// them (else as given).
func (c *codexFlags) policies(approval, sandbox string) (string, string) {
	if c.Yolo {
		return "never", "danger-full-access"
	}
	return approval, sandbox
}

// args returns the app-server arguments of --search.
func (c *codexFlags) args() []string {
	if c.Search {
		return []string{"-c", webSearchLive}
	}
	return nil
}

// addDirs resolves --add-dir: locally each becomes absolute (relative to
// workspace, ~ expanded) and must be a directory; for a remote
// app-server each must be absolute already (it is the remote's path).
// Errors are usage errors naming the value.
func (c *codexFlags) addDirs(workspace string, remote bool) ([]string, error) {
	var out []string
	for _, d := range c.AddDirs {
		if remote {
			if !path.IsAbs(d) {
				return nil, &usageError{fmt.Sprintf("invalid value %q for --add-dir: give an absolute path on the remote machine", d)}
			}
			out = append(out, path.Clean(d))
			continue
		}
		p := config.ExpandHome(d)
		if !filepath.IsAbs(p) {
			p = filepath.Join(workspace, p)
		}
		p = filepath.Clean(p)
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return nil, &usageError{fmt.Sprintf("invalid value %q for --add-dir: %s is not a directory", d, p)}
		}
		out = append(out, p)
	}
	return out, nil
}

// profileValue is -p/--profile: a NAME of letters, digits, '_', '-' and
// '.' (not first), so it names a table and a file in $CODEX_HOME, never
// a path elsewhere ("../x") or nothing at all ("").
type profileValue struct{ p *string }

// Set implements pflag.Value.
func (v profileValue) Set(s string) error {
	if !validProfile.MatchString(s) {
		return fmt.Errorf("expected a profile name (letters, digits, _ - .)")
	}
	*v.p = s
	return nil
}

// String implements pflag.Value.
func (v profileValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

// Type implements pflag.Value; it is the value name in --help.
func (v profileValue) Type() string { return "string" }

var validProfile = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// profileUse is how -p NAME applies: tandem's [profiles.NAME] (tandem
// true) and codex's NAME.config.toml (codexArgs, its settings as -c
// overrides, and codexFile where it was read).
type profileUse struct {
	tandem    bool
	codexArgs []string
	codexFile string
}

// resolveProfile decides what -p NAME applies (see docs/CONFIG.md,
// "Profiles"): tandem's profile of the file, when it has one, and codex's
// profile in the codex home (codexHome: the shared CODEX_HOME as the run
// sets it), when it exists and codex runs locally. Neither is an error
// that says where tandem looked.
func resolveProfile(name string, file *config.File, codexHome string, remote bool) (profileUse, error) {
	var use profileUse
	if name == "" {
		return use, nil
	}
	_, use.tandem = file.Profiles[name]
	where := "no [profiles." + name + "] in " + config.DefaultPath() + " (there is no such file)"
	if file.Path != "" {
		where = "no [profiles." + name + "] in " + file.Path
		if names := file.ProfileNames(); len(names) > 0 {
			where += " (it defines: " + strings.Join(names, ", ") + ")"
		}
	}
	if remote {
		if !use.tandem {
			return use, &usageError{fmt.Sprintf("unknown profile %q: %s; codex's own profiles (NAME.config.toml) are read only for a local codex, not over --ssh or --remote", name, where)}
		}
		return use, nil
	}
	p := codexProfilePath(codexHome, name)
	args, found, err := codexProfileArgs(p)
	if err != nil {
		return use, &usageError{err.Error()}
	}
	if found {
		use.codexArgs, use.codexFile = args, p
	}
	if !use.tandem && !found {
		return use, &usageError{fmt.Sprintf("unknown profile %q: %s, and no codex profile %s", name, where, p)}
	}
	return use, nil
}

// codexHomeOf is the shared CODEX_HOME of a run whose app-server gets env:
// its CODEX_HOME, else codex's default (~/.codex).
func codexHomeOf(env []string) string {
	if h := lookupEnv(env, "CODEX_HOME"); h != "" {
		return config.ExpandHome(h)
	}
	return backend.SharedCodexHome()
}
