<?php
// Host and Content-Length left out: PHP curl sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/things",
    CURLOPT_CUSTOMREQUEST => "GET",
    CURLOPT_HTTPHEADER => [
        "Accept-Encoding: gzip",
        "Content-Type: application/json",
        "X-Empty;",
    ],
    CURLOPT_POSTFIELDS => "{\"q\":\"body on GET\"}",
    CURLOPT_RETURNTRANSFER => true,
]);

$response = curl_exec($curl);
if ($response === false) {
    fwrite(STDERR, curl_error($curl) . "\n");
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\n", $response, "\n";
curl_close($curl);
