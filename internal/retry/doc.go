// Package retry is the one retry loop of the agent: it repeats an attempt
// whose error is marked "not there yet" (NotYet), with exponential backoff and
// full jitter, until a deadline, and stops at once on any other error or when
// the context is cancelled (SIGTERM at shutdown). A server-given delay
// (Retry-After) is honoured as a floor.
//
// It does not decide what "not there yet" means: the caller's attempt marks
// its errors (fetch for HTTP answers, secret for files and credentials). The
// clock and the jitter source are injectable so tests are deterministic.
package retry
