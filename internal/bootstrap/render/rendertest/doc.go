// Package rendertest is the two-interface worker document that the tests of
// render and of apply share: fixed test keys, the document, and its resolved
// secrets, so the verifier's tests check the files render makes of it. No
// production code imports it; it links nothing beyond the schema.
package rendertest
