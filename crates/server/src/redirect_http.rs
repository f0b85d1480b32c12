//! With `--redirect-http PORT`: plain HTTP answers every request with a 308 to the same
//! path on HTTPS (same host name, the TLS port).

use axum::{Router, extract::Request, response::Response};
use http::{HeaderValue, StatusCode, header};

pub(crate) fn router(https_port: u16) -> Router {
    Router::new().fallback(move |request: Request| async move { redirect(&request, https_port) })
}

fn redirect(request: &Request, https_port: u16) -> Response {
    let mut response = Response::default();
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.parse::<http::uri::Authority>().ok());
    let Some(host) = host else {
        *response.status_mut() = StatusCode::BAD_REQUEST;
        return response;
    };
    let port = if https_port == 443 { String::new() } else { format!(":{https_port}") };
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let location = format!("https://{}{port}{target}", host.host());
    match HeaderValue::try_from(location) {
        Ok(location) => {
            *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
            response.headers_mut().insert(header::LOCATION, location);
        }
        Err(_) => *response.status_mut() = StatusCode::BAD_REQUEST,
    }
    response
}
