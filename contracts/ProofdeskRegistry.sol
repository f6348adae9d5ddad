// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// @title ProofdeskRegistry
/// @notice One registry per Partner and chain, deployed by the Partner's chain account: it
/// anchors Merkle roots of issued credential batches and records revocations, after the design
/// of OpenAttestation's DocumentStore. Any verifier with an RPC endpoint can check issuing and
/// revocation without Proofdesk's server.
/// @dev The owner and the signing key are immutable: rotating the Partner's certificate-signing
/// key means deploying a new registry, so a key once bound to an account stays bound in every
/// proof that names this registry. Revert reasons are plain strings so any explorer shows them.
contract ProofdeskRegistry {
    /// @notice The Partner's chain account; the only one allowed to issue and revoke.
    address public immutable owner;

    /// @notice The Partner's Ed25519 certificate-signing public key, bound to `owner`.
    bytes32 public immutable signingKey;

    /// @notice Block timestamp at which a root was issued; 0 when it never was.
    mapping(bytes32 => uint256) public issuedAt;

    /// @notice Block timestamp at which a hash (a root or a single credential's leaf) was revoked; 0 when it never was.
    mapping(bytes32 => uint256) public revokedAt;

    event SigningKeySet(bytes32 signingKey);
    event Issued(bytes32 indexed root);
    event Revoked(bytes32 indexed hash);

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    constructor(bytes32 signingKey_) {
        owner = msg.sender;
        signingKey = signingKey_;
        emit SigningKeySet(signingKey_);
    }

    /// @notice Anchors a batch root. A root can be issued once.
    function issue(bytes32 root) external onlyOwner {
        require(issuedAt[root] == 0, "already issued");
        issuedAt[root] = block.timestamp;
        emit Issued(root);
    }

    /// @notice Revokes a hash: a batch root or one credential's leaf. A hash can be revoked once.
    function revoke(bytes32 hash) external onlyOwner {
        require(revokedAt[hash] == 0, "already revoked");
        revokedAt[hash] = block.timestamp;
        emit Revoked(hash);
    }

    /// @notice Whether `root` was issued.
    function isIssued(bytes32 root) external view returns (bool) {
        return issuedAt[root] != 0;
    }

    /// @notice Whether `hash` was revoked.
    function isRevoked(bytes32 hash) external view returns (bool) {
        return revokedAt[hash] != 0;
    }
}
