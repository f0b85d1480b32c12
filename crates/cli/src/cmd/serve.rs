//! `stillpoint serve DIST`.

use std::net::SocketAddr;
use std::process::ExitCode;

use stillpoint_server::ServeConfig;

use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let config = ServeConfig { root: args.dist.clone(), proxy_allow: Vec::new() };
    let addr = SocketAddr::new(args.host, args.port);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(stillpoint_server::serve(config, addr, |bound| {
        tracing::info!("Serving {} at http://{bound} (Ctrl-C to stop)", args.dist.display());
    }))?;
    Ok(ExitCode::SUCCESS)
}
