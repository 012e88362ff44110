// Package config owns lwr's configuration: it is the only code that reads the
// configuration file, the LWR_* and legacy CC_LWR_* environment variables and
// the command-line overrides, and it turns them into one validated, typed
// Config that callers pass down to the other packages.
package config
