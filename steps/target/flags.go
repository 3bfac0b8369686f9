package target

import (
	"errors"
	"flag"
	"net/http"
	"time"
)

// Flags are the flags every command that talks to a target shares
// (pricing-contract, init, explore, replay), declared here once, with one
// default timeout.
type Flags struct {
	BaseURL, Profile string
	ProfileOnly      bool
	Timeout          time.Duration
}

// Register declares --base-url, --profile, --profile-only and --timeout on
// fs; init, which writes a profile rather than reading one, takes
// RegisterTarget alone.
func (f *Flags) Register(fs *flag.FlagSet) {
	f.RegisterTarget(fs)
	fs.StringVar(&f.Profile, "profile", "", "read the target profile (and the suite's default tags) from `FILE`: key = value lines, ${VAR} from the environment")
	fs.BoolVar(&f.ProfileOnly, "profile-only", false, "take the target profile from --profile and the defaults only, ignoring PRICING_* variables "+
		"(left from another target by eval \"$(pricing-mock --print-env)\", say); ${VAR} in the file still reads the environment")
}

// RegisterTarget declares --base-url and --timeout on fs.
func (f *Flags) RegisterTarget(fs *flag.FlagSet) {
	fs.StringVar(&f.BaseURL, "base-url", "", "base `URL` of the target, with the version segment (env PRICING_BASE_URL)")
	fs.DurationVar(&f.Timeout, "timeout", DefaultTimeout, "give up on a request after `D`: connection, head and body (the client's bounds: "+BoundsText+")")
}

// Load reads the profile the flags name (LoadFlags), after checking
// --timeout.
func (f *Flags) Load(getenv func(string) string) (Profile, string, error) {
	if err := f.CheckTimeout(); err != nil {
		return Profile{}, "", err
	}
	return LoadFlags(f.Profile, f.ProfileOnly, f.BaseURL, getenv)
}

// CheckTimeout refuses a --timeout that is not positive.
func (f *Flags) CheckTimeout() error {
	if f.Timeout <= 0 {
		return errors.New("--timeout must be positive, e.g. 10s")
	}
	return nil
}

// Client is NewClient with --timeout.
func (f *Flags) Client() *http.Client { return NewClient(f.Timeout) }
