<?php

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/users?page=2&sort=name",
    CURLOPT_CUSTOMREQUEST => "GET",
    CURLOPT_HTTPHEADER => [
        "Accept: application/json",
        "X-Trace: abc",
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
