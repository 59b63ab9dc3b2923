// Package config reads tandem's TOML configuration file
// ($XDG_CONFIG_HOME/tandem/config.toml, or --config FILE), validates it,
// and resolves the settings of one run from, highest first: command-line
// flags, the chosen profile ([profiles.NAME]), the file's top level, and
// the defaults.
//
// Errors name the file, the line and the key, and list the allowed values;
// unknown keys are an error that lists them.
//
// config owns no UI and speaks no protocol: it must not import backend/,
// model/, ui/ or forms/. Its only tandem-facing output is Settings.
package config
