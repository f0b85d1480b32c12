//! `deploy --dev` and `deploy --env NAME` against a real S3 server (moto): a build goes only to
//! the bucket of the environment it was built for, with that environment's URLs.

use crate::deploy::{BUCKET, deploy, deploy_env};
use crate::s3::S3;
use crate::util::{SiteTest, stderr};

fn built_for(t: &SiteTest, env: &str) {
    let out = t.run(&["build", "site", "--out", "dist", "--env", env]);
    assert!(out.status.success(), "{}", stderr(&out));
}

fn text(s3: &S3, bucket: &str, key: &str) -> String {
    String::from_utf8(crate::s3::get(s3, bucket, key)).unwrap()
}

#[test]
fn deploy_dev_uploads_the_dev_environment_to_the_dev_bucket() {
    let Some(s3) = S3::start() else { return };
    s3.create_buckets(&[BUCKET, "calm-site-dev"]);
    let t = SiteTest::from_fixture("minimal");
    built_for(&t, "dev");
    let out = deploy(&t, &s3, &["--dev"]);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(
            "Deploying site calm for dev (https://dev.calm.example) to s3://calm-site-dev"
        ),
        "{out}"
    );
    assert!(s3.dump(BUCKET).is_empty(), "--dev wrote to the production bucket");
    assert_eq!(text(&s3, "calm-site-dev", "robots.txt"), "User-agent: *\nDisallow: /\n");
    let sitemap = text(&s3, "calm-site-dev", "sitemap.xml");
    assert!(sitemap.contains("<loc>https://dev.calm.example/</loc>"), "{sitemap}");
    assert!(!sitemap.contains("https://calm.example"), "{sitemap}");
    let home = text(&s3, "calm-site-dev", "index.html");
    assert!(home.contains("<meta name=\"robots\" content=\"noindex\">"), "{home}");
}

#[test]
fn a_build_goes_only_to_its_own_environment() {
    let Some(s3) = S3::start() else { return };
    s3.create_buckets(&[BUCKET, "calm-site-dev", "calm-staging"]);
    let t = crate::env::with_staging();
    built_for(&t, "staging");
    // A staging build is not published to production, nor to dev.
    for args in [&[][..], &["--dev"], &["--env", "production"]] {
        let out = deploy_env(&t, &s3, args, &[]);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("the site was built for staging"), "{args:?}: {err}");
        assert!(err.contains("--env staging"), "{args:?}: {err}");
    }
    // STILLPOINT_ENV names it as --env does.
    let out = deploy_env(&t, &s3, &[], &[("STILLPOINT_ENV", "staging")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("for staging (https://staging.calm.example) to s3://calm-staging"),
        "{stdout}"
    );
    assert!(s3.dump(BUCKET).is_empty() && s3.dump("calm-site-dev").is_empty());

    // A production build is not published to a non-production bucket.
    t.build();
    let out = deploy_env(&t, &s3, &["--dev"], &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the site was built for production, not dev"),
        "{}",
        stderr(&out)
    );
    assert!(s3.dump("calm-site-dev").is_empty());
}
