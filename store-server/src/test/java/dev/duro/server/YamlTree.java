package dev.duro.server;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A value read from a YAML (or JSON) file, with the path that led to it, for tests of the deployment files under
 * {@code docker/}: every lookup that finds the wrong shape fails naming the file and the path, so a broken manifest
 * reads as "duro.yaml: StatefulSet/duro.spec.replicas is missing" rather than as a ClassCastException.
 */
record YamlTree(String path, @Nullable Object value) {

    /** Every document of {@code file}; empty ones are left out. */
    static List<YamlTree> documents(Path file) throws IOException {
        List<YamlTree> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            // SafeConstructor: plain maps, lists and scalars, never objects named by tags in the file.
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                if (document != null) {
                    documents.add(new YamlTree(file.getFileName().toString() + ":", document));
                }
            }
        }
        return documents;
    }

    /** The one document of {@code file}. */
    static YamlTree document(Path file) throws IOException {
        List<YamlTree> documents = documents(file);
        if (documents.size() != 1) {
            throw new AssertionError(file + " holds " + documents.size() + " documents, expected one");
        }
        return documents.get(0);
    }

    /** Whether there is a value here (a key that is absent or null has none). */
    boolean present() {
        return value != null;
    }

    /** The value under {@code key} of this mapping; absent if the key is. */
    YamlTree get(String key) {
        Object child = mapping().get(key);
        return new YamlTree(path + "." + key, child);
    }

    /** The entries of this mapping, in the file's order. */
    Map<String, YamlTree> entries() {
        Map<String, YamlTree> entries = new LinkedHashMap<>();
        mapping().forEach((key, child) -> entries.put(key.toString(), new YamlTree(path + "." + key, child)));
        return entries;
    }

    /** The items of this sequence; none if there is no value here. */
    List<YamlTree> items() {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new AssertionError(path + " is not a list: " + value);
        }
        List<YamlTree> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            items.add(new YamlTree(path + "[" + i + "]", list.get(i)));
        }
        return items;
    }

    /** This scalar as text (YAML's numbers and booleans as they print); fails if there is none. */
    String text() {
        if (value == null) {
            throw new AssertionError(path + " is missing");
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            throw new AssertionError(path + " is not a single value: " + value);
        }
        return value.toString();
    }

    /** This scalar as text, or {@code fallback} if there is none. */
    @Nullable
    String text(@Nullable String fallback) {
        return value == null ? fallback : text();
    }

    int number() {
        try {
            return Integer.parseInt(text());
        } catch (NumberFormatException e) {
            throw new AssertionError(path + " is not a number: " + value, e);
        }
    }

    /** The item of this sequence of mappings whose {@code key} is {@code wanted}. */
    YamlTree itemWith(String key, String wanted) {
        for (YamlTree item : items()) {
            if (wanted.equals(item.get(key).text(null))) {
                return item;
            }
        }
        throw new AssertionError(path + " has no item with " + key + " = " + wanted + ": " + value);
    }

    private Map<?, ?> mapping() {
        if (value == null) {
            throw new AssertionError(path + " is missing");
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new AssertionError(path + " is not a mapping: " + value);
        }
        return map;
    }
}
