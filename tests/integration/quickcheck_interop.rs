//! quickcheck users write properties over ssmcheck's models (feature `quickcheck`), and any
//! `rand_distr` distribution draws from ssmcheck's keyed Philox streams.

use quickcheck::{quickcheck, TestResult};
use rand_distr::{Distribution, Gamma, StudentT};
use ssmcheck::mc::{Stream, StreamKey};
use ssmcheck::model::DiagonalSsm;

#[test]
fn quickcheck_properties_over_ssmcheck_models() {
    // The ZOH transition of every mode of an arbitrary stable model contracts.
    fn contracts(m: DiagonalSsm, x: i8) -> TestResult {
        let delta = m.delta.delta(f64::from(x) / 16.0);
        TestResult::from_bool(m.a.iter().all(|a| (a * delta).exp() < 1.0))
    }
    quickcheck(contracts as fn(DiagonalSsm, i8) -> TestResult);
}

#[test]
fn rand_distr_draws_from_keyed_streams_reproducibly() {
    let key = StreamKey::new(7, "user.heavy_tails");
    let draw = |i| {
        let mut s = Stream::new(key, i);
        (Gamma::new(0.5, 2.0).unwrap().sample(&mut s), StudentT::new(3.0).unwrap().sample(&mut s))
    };
    assert_eq!(draw(4), draw(4));
    assert_ne!(draw(4), draw(5));
    let mean = (0..20000).map(|i| draw(i).0).sum::<f64>() / 20000.0;
    assert!((mean - 1.0).abs() < 0.05, "Gamma(1/2, 2) has mean 1: {mean}");
}
