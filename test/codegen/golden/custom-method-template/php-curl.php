<?php

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "{{baseUrl}}/dav/{{folder}}?depth={{depth}}",
    CURLOPT_CUSTOMREQUEST => "PROPFIND",
    CURLOPT_HTTPHEADER => [
        "Depth: 1",
        "Content-Length: 0",
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
