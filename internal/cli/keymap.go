package cli

import (
	"errors"

	"tandem/config"
	"tandem/model/keys"
)

// keymap builds a run's keymap: keys.Default() with the config file's
// [keys] rebindings (file nil or without [keys]: the defaults). An entry
// the keymap refuses — an unknown action, no key, a key another action of
// the same place has — is a usage error (exit 2) naming the file, the
// entry's line and, for a clash, both actions.
func keymap(file *config.File) (*keys.Map, error) {
	km := keys.Default()
	err := km.Rebind(file.Bindings())
	if err == nil {
		return km, nil
	}
	var re *keys.RebindError
	if errors.As(err, &re) {
		return nil, &usageError{file.KeyError(re.Action, re.Msg).Error()}
	}
	return nil, &usageError{file.KeyError("", err.Error()).Error()}
}

// defaultKeymap is the keymap of a command without --config (replay,
// demo): the default config file's [keys]. A config file that does not
// load is a usage error, as for every command.
func defaultKeymap() (*keys.Map, error) {
	file, err := config.Load("")
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return keymap(file)
}
