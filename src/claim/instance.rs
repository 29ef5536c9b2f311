//! A drawn instance with its type erased.
//!
//! The property judge (search, shrinking, records) is the same code for every claim; written
//! over each claim's own instance type it was compiled once per claim, about 190 copies and a
//! third of the crate's generated code. Over [`Instance`] it is compiled once: a property's
//! strategy is mapped to `Instance`s and boxed, and the claim's own closures are wrapped to look
//! their instance up by type. The mapping draws exactly what the strategy draws and shrinks
//! through the same value tree, so results do not change.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::fmt::{self, Debug};

/// One instance a property's strategy drew, of whatever type the strategy produces.
pub struct Instance(Box<dyn Drawn>);

/// What the judge needs of an instance: its type for the claim's own closures, and its JSON.
trait Drawn {
    fn as_any(&self) -> &dyn Any;
    fn json(&self) -> serde_json::Result<serde_json::Value>;
    fn json_text(&self) -> String;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: Serialize + Debug + 'static> Drawn for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn json(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::to_value(self)
    }
    fn json_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(self, f)
    }
}

impl Instance {
    /// Wraps a drawn value.
    pub fn new<T: Serialize + Debug + 'static>(value: T) -> Self {
        Instance(Box::new(value))
    }

    /// A value of type `T` read back from its JSON (a recorded counterexample).
    pub fn from_json<T: DeserializeOwned + Serialize + Debug + 'static>(json: serde_json::Value) -> serde_json::Result<Self> {
        serde_json::from_value::<T>(json).map(Instance::new)
    }

    /// The value as its own type.
    ///
    /// # Panics
    /// When it is not a `T`: a property only looks up the type its strategy draws.
    pub fn get<T: 'static>(&self) -> &T {
        self.0.as_any().downcast_ref().expect("a property's instance has its strategy's type")
    }

    /// The value as a JSON value (an object's keys sorted, as `serde_json::to_value` gives them).
    pub fn to_json(&self) -> serde_json::Result<serde_json::Value> {
        self.0.json()
    }

    /// The value as JSON text, fields in declaration order (the key of a trial's streams).
    pub fn to_json_text(&self) -> String {
        self.0.json_text()
    }
}

impl Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instance_keeps_its_type_and_its_json() {
        let i = Instance::new((1.5f64, vec![2u32, 3]));
        assert_eq!(i.get::<(f64, Vec<u32>)>().1, vec![2, 3]);
        assert_eq!(i.to_json().unwrap(), serde_json::json!([1.5, [2, 3]]));
        assert_eq!(i.to_json_text(), "[1.5,[2,3]]");
        assert_eq!(format!("{i:?}"), "(1.5, [2, 3])");
        let back = Instance::from_json::<(f64, Vec<u32>)>(i.to_json().unwrap()).unwrap();
        assert_eq!(back.to_json_text(), i.to_json_text());
    }

    #[test]
    #[should_panic(expected = "strategy's type")]
    fn looking_up_another_type_panics() {
        Instance::new(1.0f64).get::<u32>();
    }
}
