//! One route of the operator contract: method, path and requirement.

use crate::requirement::Requirement;
use crate::route_table::RouteId;

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

/// The declaration of one route; the API mounts and guards routes from these alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteSpec {
    /// Which route this is.
    pub id: RouteId,
    /// Its HTTP method.
    pub method: HttpMethod,
    /// Its path below the service root, with `{name}` parameters.
    pub path: &'static str,
    /// What a caller must present.
    pub requirement: Requirement,
}

impl RouteSpec {
    /// The path's segments that are parameters, in order.
    pub fn parameters(&self) -> impl Iterator<Item = &'static str> {
        self.path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    }
}
