package dev.duro.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** GETs to a node's operator endpoint, for tests: failures to connect fail the test, naming the URL. */
final class Http {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {}

    static HttpResponse<String> get(String url) {
        try {
            return CLIENT.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("GET " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The body of a GET that must answer 200. */
    static String body(String url) {
        HttpResponse<String> response = get(url);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** The lines of {@code text} that start with {@code prefix}, for failure messages. */
    static String grep(String text, String prefix) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }
}
