//! The HTTP methods of the operator contract's routes.

/// The HTTP methods the contract uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpMethod {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl HttpMethod {
    /// Every method the contract uses.
    pub const ALL: [Self; 5] = [Self::Get, Self::Post, Self::Put, Self::Patch, Self::Delete];

    /// The method named `name` as written in HTTP; `None` for one the contract never uses.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|method| method.as_str() == name)
    }

    /// The method's name as written in HTTP.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_found_by_its_name_and_no_other() {
        for method in HttpMethod::ALL {
            assert_eq!(HttpMethod::from_name(method.as_str()), Some(method));
        }
        assert_eq!(HttpMethod::from_name("get"), None);
        assert_eq!(HttpMethod::from_name("HEAD"), None);
    }
}
