// Package applytest holds an apply.Live for tests: RecordingLive performs
// nothing and records each action as one line of text. No production code
// imports it.
package applytest
