<?php
// Content-Type left out: PHP curl sets it with the multipart boundary.
// PHP curl cannot set a Content-Type on text parts; sent without it: meta.

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/upload",
    CURLOPT_CUSTOMREQUEST => "POST",
    CURLOPT_POSTFIELDS => [
        "title" => "Holiday",
        "meta" => "{\"a\":1}",
        "photo" => new CURLFile("/home/me/api/files/photo.png", "image/png", "photo.png"),
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
