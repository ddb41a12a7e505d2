<?php
// Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
// Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/private",
    CURLOPT_CUSTOMREQUEST => "GET",
    CURLOPT_RETURNTRANSFER => true,
]);

$response = curl_exec($curl);
if ($response === false) {
    fwrite(STDERR, curl_error($curl) . "\n");
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\n", $response, "\n";
curl_close($curl);
