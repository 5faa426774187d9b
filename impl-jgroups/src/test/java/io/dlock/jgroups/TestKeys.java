package io.dlock.jgroups;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

/** Writes throw-away keystores holding a fresh AES key, made at test time (no keytool, no committed secrets). */
final class TestKeys {

    static final String PASSWORD = "test-only-password";

    private TestKeys() {
    }

    /** A PKCS12 keystore at {@code file} with one new 128-bit AES key under alias {@code dlock}. */
    static Path aesKeystore(Path file) throws Exception {
        KeyGenerator gen = KeyGenerator.getInstance("AES");
        gen.init(128);
        SecretKey key = gen.generateKey();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setEntry("dlock", new KeyStore.SecretKeyEntry(key), new KeyStore.PasswordProtection(PASSWORD.toCharArray()));
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, PASSWORD.toCharArray());
        }
        return file;
    }
}
