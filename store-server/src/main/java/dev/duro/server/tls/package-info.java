/**
 * TLS for a node (docs/security.md): the certificates {@code ./duro certs} issues ({@link
 * dev.duro.server.tls.Certificates}, {@link dev.duro.server.tls.CertsCommand}), the node's PEM files ({@link
 * dev.duro.server.tls.TlsMaterial}), the TLS 1.3 contexts of its endpoint, peer links and Raft links ({@link
 * dev.duro.server.tls.NodeTls}), and the identity a verified certificate proves ({@link
 * dev.duro.server.tls.PeerIdentity}), kept per connection ({@link dev.duro.server.tls.ConnectionIdentity}).
 *
 * <p>It knows nothing of the rest of the server (no dependency on {@code dev.duro.server}) and no Ratis type: the
 * consensus module receives the key and trust managers as JDK types.
 */
package dev.duro.server.tls;
