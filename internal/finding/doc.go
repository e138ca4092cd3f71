// Package finding is the one type every check of the agent reports a
// problem in: the contract's validation (schema), the effective k0s
// configuration and k0s's own rules (k0s/config, k0s/rules), the check
// across a set of documents (cluster) and the records status keeps, as
// Ignition's and Butane's report and k0s's field error lists are one type
// for theirs. A finding has a field path, a position when the document has
// one, a severity, a message and, where the rule mirrors another program's,
// the source it comes from.
//
// Paths are built (Path), not spelled, so that a rule names its field with
// the same steps the decoder walked.
//
// It is a leaf: the standard library only, no I/O. How findings are
// gathered, ordered, cut and printed is each check's.
package finding
