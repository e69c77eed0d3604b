// A complete webhook receiver for the Opinion platform, JDK 17 standard library only.
//
// Run:  WEBHOOK_SECRET=whsec_... PORT=8080 java Receiver.java
//
// It verifies each delivery's Standard Webhooks signature (every `v1,` entry of
// `webhook-signature`, constant-time), refuses timestamps more than five minutes from
// this machine's clock, and handles each event id once: a repeated id is answered
// 200 "already processed" without handling it again, so the service stops retrying.
//
// Answers: 204 on an accepted event, 200 on a duplicate, 400 on a missing header or a
// stale timestamp, 401 on a signature that does not match.

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Receiver {
    static final long TOLERANCE_SECONDS = 5 * 60;
    static final byte[] SECRET =
            Base64.getDecoder().decode(System.getenv("WEBHOOK_SECRET").replaceFirst("^whsec_", ""));
    // Ids already handled. An in-memory set is enough for an example; a real receiver keeps
    // them in its database (at least as long as the retry window, about three days), ideally
    // in the same transaction as the work the event causes.
    static final Set<String> SEEN_IDS = ConcurrentHashMap.newKeySet();
    // Only the envelope's top-level "id" and "type" are read here; use your JSON library.
    static final Pattern ID = Pattern.compile("^\\{\"id\":\"([^\"]+)\"");
    static final Pattern TYPE = Pattern.compile("\"type\":\"([^\"]+)\"");

    public static void main(String[] args) throws IOException {
        String port = System.getenv().getOrDefault("PORT", "0");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(port)), 0);
        server.createContext("/", Receiver::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        System.out.println("listening on " + server.getAddress().getPort());
        System.out.flush();
    }

    static boolean signatureMatches(String id, String timestamp, byte[] body, String header) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(body);
        boolean matched = false;
        for (String entry : header.split(" ")) {
            if (!entry.startsWith("v1,")) continue;
            byte[] given;
            try {
                given = Base64.getDecoder().decode(entry.substring(3));
            } catch (IllegalArgumentException notBase64) {
                continue;
            }
            if (MessageDigest.isEqual(given, expected)) matched = true;
        }
        return matched;
    }

    static void handle(HttpExchange exchange) throws IOException {
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
            if (id == null || timestamp == null || signature == null) {
                answer(exchange, 400, "missing webhook headers");
                return;
            }
            if (!signatureMatches(id, timestamp, body, signature)) {
                answer(exchange, 401, "invalid signature");
                return;
            }
            long sentAt;
            try {
                sentAt = Long.parseLong(timestamp);
            } catch (NumberFormatException notANumber) {
                answer(exchange, 400, "invalid timestamp");
                return;
            }
            if (Math.abs(System.currentTimeMillis() / 1000 - sentAt) > TOLERANCE_SECONDS) {
                answer(exchange, 400, "stale timestamp");
                return;
            }
            if (!SEEN_IDS.add(id)) {
                log("duplicate " + id);
                answer(exchange, 200, "already processed");
                return;
            }
            String text = new String(body, StandardCharsets.UTF_8);
            Matcher eventId = ID.matcher(text);
            Matcher type = TYPE.matcher(text);
            // Answer at once; slow work belongs in a queue of your own.
            log("accepted " + (eventId.find() ? eventId.group(1) : id) + " " + (type.find() ? type.group(1) : "?"));
            answer(exchange, 204, "");
        } catch (Exception error) {
            answer(exchange, 500, "");
        } finally {
            exchange.close();
        }
    }

    static synchronized void log(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, payload.length == 0 ? -1 : payload.length);
        if (payload.length > 0) exchange.getResponseBody().write(payload);
    }
}
