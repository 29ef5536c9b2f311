//! The explicit weights of the papers' proofs, built from the models: what a construction claim
//! runs, and what the Python bindings and the trained-model experiments reuse. A family imports
//! its construction from here (never from another family), so the models, the constructions and
//! the families form layers.
//!
//! | construction | module | paper |
//! |---|---|---|
//! | MQAR: embeddings, one mixer and a readout answering every query (Theorems 2–4) | [`mqar`] | 000 App. C.1 |
//! | induction heads with one Mamba-Δᵀ layer (Lemma 3) | [`induction`] | 000 Lemma 3 |
//! | exact COPY with a Mamba block of state size N (Theorem 2 / Theorem 6) | [`copy`] | 003 App. A.2 |

pub mod copy;
pub mod induction;
pub mod mqar;
