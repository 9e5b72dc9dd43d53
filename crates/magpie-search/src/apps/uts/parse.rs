//! Reading [`UtsParams`] from text: a preset name, or `key=value` pairs separated by
//! commas over the UTS defaults, keys being the UTS flag letters.

use std::str::FromStr;

use super::error::UtsParamsError;
use super::params::{GeoShape, TreeType, UtsParams};

impl FromStr for UtsParams {
    type Err = UtsParamsError;

    /// Parses `default`, `T1`… (see [`PRESETS`](super::PRESETS)) or, for example,
    /// `t=1,a=3,d=10,b=4,r=19`; unset keys keep their UTS defaults. The result is
    /// [validated](UtsParams::validate).
    fn from_str(text: &str) -> Result<Self, UtsParamsError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(UtsParamsError::Empty);
        }
        if !text.contains('=') && !text.contains(',') {
            return Self::preset(text).ok_or_else(|| UtsParamsError::UnknownPreset(text.into()));
        }
        let mut params = Self::default();
        let mut seen = Vec::new();
        for item in text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            let (key, value) = (key.trim(), value.trim());
            if value.is_empty() {
                return Err(UtsParamsError::MissingValue(key.into()));
            }
            if seen.contains(&key) {
                return Err(UtsParamsError::RepeatedKey(key.into()));
            }
            seen.push(key);
            params.set(key, value)?;
        }
        params.validate()?;
        Ok(params)
    }
}

impl UtsParams {
    /// Sets the parameter of flag `key` to `value`.
    fn set(&mut self, key: &str, value: &str) -> Result<(), UtsParamsError> {
        match key {
            "t" => {
                let code = number(key, value)?;
                self.tree_type =
                    TreeType::from_code(code).ok_or(UtsParamsError::UnknownTreeType(code))?;
            }
            "a" => {
                let code = number(key, value)?;
                self.shape = GeoShape::from_code(code).ok_or(UtsParamsError::UnknownShape(code))?;
            }
            "d" => self.depth = number(key, value)?,
            "b" => self.root_branching = number(key, value)?,
            "r" => self.root_seed = number(key, value)?,
            "q" => self.nonleaf_probability = number(key, value)?,
            "m" => self.nonleaf_children = number(key, value)?,
            _ => return Err(UtsParamsError::UnknownKey(key.into())),
        }
        Ok(())
    }
}

/// `value` as a number of type `T`, or an error naming `key`.
fn number<T: FromStr>(key: &str, value: &str) -> Result<T, UtsParamsError> {
    value.parse().map_err(|_| UtsParamsError::BadNumber {
        key: key.into(),
        value: value.into(),
    })
}
