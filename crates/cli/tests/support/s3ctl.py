"""An independent S3 client (boto3) for the deploy tests: creates buckets and reports what a
bucket holds, so the tests check `stillpoint deploy` with a client other than its own.

    s3ctl.py ENDPOINT mkbucket NAME...
    s3ctl.py ENDPOINT get|delete BUCKET KEY;  s3ctl.py ENDPOINT put BUCKET KEY FILE
    s3ctl.py ENDPOINT head BUCKET KEY    -> JSON {websiteRedirectLocation, contentType, cacheControl}
    s3ctl.py ENDPOINT fill BUCKET FORMAT N   -> puts FORMAT.format(i) for i in 0..N (body: the key)
    s3ctl.py ENDPOINT dump NAME     -> JSON {key: {size, etag, sha256, contentType,
                                      cacheControl, contentEncoding, lastModified}}
"""

import hashlib
import json
import sys

import boto3
from botocore.config import Config


def client(endpoint):
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(retries={"max_attempts": 2}),
    )


def dump(s3, bucket):
    out = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for obj in page.get("Contents", []):
            key = obj["Key"]
            got = s3.get_object(Bucket=bucket, Key=key)
            body = got["Body"].read()
            out[key] = {
                "size": obj["Size"],
                "etag": obj["ETag"],
                "sha256": hashlib.sha256(body).hexdigest(),
                "contentType": got.get("ContentType"),
                "cacheControl": got.get("CacheControl"),
                "contentEncoding": got.get("ContentEncoding"),
                "lastModified": got["LastModified"].isoformat(),
            }
    return out


def main():
    endpoint, cmd, *names = sys.argv[1:]
    s3 = client(endpoint)
    if cmd == "mkbucket":
        for name in names:
            s3.create_bucket(Bucket=name)
    elif cmd == "dump":
        json.dump(dump(s3, names[0]), sys.stdout, sort_keys=True)
    elif cmd == "get":
        sys.stdout.buffer.write(s3.get_object(Bucket=names[0], Key=names[1])["Body"].read())
    elif cmd == "head":
        got = s3.head_object(Bucket=names[0], Key=names[1])
        head = {
            "websiteRedirectLocation": got.get("WebsiteRedirectLocation"),
            "contentType": got.get("ContentType"),
            "cacheControl": got.get("CacheControl"),
        }
        json.dump(head, sys.stdout, sort_keys=True)
    elif cmd == "put":
        with open(names[2], "rb") as f:
            s3.put_object(Bucket=names[0], Key=names[1], Body=f.read())
    elif cmd == "fill":
        for i in range(int(names[2])):
            key = names[1].format(i)
            s3.put_object(Bucket=names[0], Key=key, Body=key.encode())
    elif cmd == "delete":
        s3.delete_object(Bucket=names[0], Key=names[1])
    else:
        sys.exit(f"unknown command {cmd}")


main()
