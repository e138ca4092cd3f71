// Package clustergen is test equipment: it builds random valid clusters
// from a seed (Generate), applies one realistic mistake of a family to a
// set (Mutate), or a change that must add no finding (Harmless). A set is
// its node documents and each node's host facts, as files named as
// validate --cluster --facts DIR reads them (and, for a set with sites,
// its topology, as --topology reads it), so the same seed builds the
// same set for the cluster check's tests and for a lab that runs it.
//
// It writes nothing and reads nothing; keys are derived from the seed, and
// no secret in a set is anyone's.
package clustergen
