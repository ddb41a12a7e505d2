<?php
// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/bucket/key",
    CURLOPT_CUSTOMREQUEST => "GET",
    CURLOPT_HTTPHEADER => [
        "X-Amz-Date: 20260101T000000Z",
        "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc",
    ],
    CURLOPT_RETURNTRANSFER => true,
]);

$response = curl_exec($curl);
if ($response === false) {
    fwrite(STDERR, curl_error($curl) . "\n");
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\n", $response, "\n";
curl_close($curl);
