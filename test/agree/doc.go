// Package agree holds "validate accepts ⇔ plan and apply accept" to every
// document the repository holds: testdata/valid, invalid and render, the
// hostile corpus (its placeholders filled as test/hostile fills them) and
// examples/, each with its facts file (or a host with the addresses the
// documents use). Whatever `validate --facts F` accepts, `plan --facts F`
// accepts, and `apply` too with well-formed fake secrets in place; whatever
// plan refuses, validate refuses with the same message; and without facts
// the same holds of validate and plan. The checks only a resolved secret
// can answer are apply's alone: the test tolerates exactly the refusals
// docs/first-boot.md lists ("What only apply can check").
//
// It holds tests only.
package agree
