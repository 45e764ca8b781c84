"""Keys to crypto wallets and the nodes they talk to: whoever holds one holds the funds, and no
provider can rotate it. Bitcoin's keys carry a checksum (verify.base58check), a seed phrase is
words from BIP-39's list (seed_phrases.py); an Ethereum or Solana key is bare bytes, known only by
where it is written.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.rules import Rule, random_with_digit, rule

B58 = "[1-9A-HJ-NP-Za-km-z]"


HEX64 = r"(?:0x)?([0-9a-fA-F]{64})(?![0-9A-Za-z])"
WALLETS: list[Rule] = [
    # WIF: 5H/5J/5K (uncompressed) or K/L (compressed) on mainnet, 9 or c on testnet; Base58Check
    rule(
        "private_key",
        "wif privkey priv_key wallet bitcoin btc electrum sweep wpkh",
        "[5KL]" + B58 + "{50,51}" + f"(?!{B58})",
        check=verify.wif_key,
    ),
    rule(
        "private_key",
        "testnet regtest signet tb1 bitcoin privkey wif",
        "[c9]" + B58 + "{50,51}" + f"(?!{B58})",
        check=verify.wif_key,
    ),
    # BIP-32 extended private keys: xprv/tprv, and SLIP-132's yprv/zprv/uprv/vprv/Yprv/Zprv
    rule(
        "private_key",
        "xprv tprv yprv zprv uprv vprv",
        "(?:xprv|tprv|yprv|zprv|uprv|vprv|Yprv|Zprv)" + B58 + "{107,108}" + f"(?!{B58})",
        check=verify.extended_private_key,
    ),
    # An Ethereum key given where only a key goes: Foundry's `--private-key`, Hardhat's
    # `accounts: ["0x…"]`, Ganache's `--wallet.accounts "0x…,balance"`, a `…_PK` variable
    rule("private_key", "--private-key", r"--private-key[= ]\s?['\"]?" + HEX64, not_after=r"\w-"),
    rule("private_key", "accounts", r"accounts[\"']?\s*[:=]\s*\[\s*[\"'`]" + HEX64 + r"[\"'`]", not_after=""),
    rule("private_key", "--wallet.accounts", r"--wallet\.accounts[= ]\s?[\"']?" + HEX64 + ",", not_after=""),
    # (named for who signs: `const DEPLOYER = "0x…"`, `SIGNER_KEY=…`; not `MINTER_ROLE`, a hash, nor an
    # owner, whose 64 hex are an id as often: S3's canonical user id)
    rule(
        "private_key",
        "deployer signer relayer keeper faucet minter",
        r"(?i)(?:deployer|signer|relayer|keeper|faucet|minter)(?:_?(?:private_?)?key|_?pk)?"
        r"[\"']?[ \t]*[=:][ \t]*[\"']?" + HEX64,
        check=verify.random_enough,
    ),
    rule("private_key", "pk", r"(?i)pk[\"']?[ \t]*[=:][ \t]*[\"']?" + HEX64, check=verify.random_enough),
    # Solana: a keypair file is a JSON array of its 64 bytes (`solana-keygen new -o id.json`); its
    # base58 secret key (87 or 88 characters) is a signature's length, so only where it is named
    rule(
        "private_key",
        "",
        r"\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]",
        not_after="",
        check=lambda array: (
            all(int(n) < 256 for n in re.findall(r"\d+", array)) and len(set(re.findall(r"\d+", array))) >= 32
        ),
    ),
    rule(
        "private_key",
        "",
        r"(?:bs58\.decode|from_base58_string)\(\s*[\"'](" + B58 + "{86,88})[\"']",
        not_after="",
        check=random_with_digit,
    ),
    # ... or alone on a line below its name in a note ("Show private key", "deployer key:", Phantom's
    # export): 64 hex (Ethereum) or 86 to 88 of base58 (Solana)
    rule(
        "private_key",
        "",
        r"(?i)(?:private[ _]?key|secret[ _]?key|deployer|signer|hot wallet)\b[^\n]{0,100}\n"
        r"(?:[^\n]{0,100}\n)?[ \t]*(?:0x)?([0-9a-f]{64}|" + B58 + "{86,88})[ \t]*(?:\n|$)",
        not_after="",
        check=lambda key: verify.random_enough(key) if len(key) == 64 else random_with_digit(key),
    ),
    # Node providers' keys in their RPC URLs: Infura's project id (`/v3/<32 hex>`), Alchemy's key
    # (`/v2/<key>`), QuickNode's token path, Ankr's and GetBlock's keys
    rule(
        "generic_api_key",
        "infura.io/v3/ alchemy.com/v2/ alchemyapi.io/v2/ quiknode.pro/ rpc.ankr.com/ go.getblock.io/",
        r"(?:infura\.io/(?:ws/)?v3/|alchemy(?:api)?\.(?:com|io)/(?:nft/)?v\d/|quiknode\.pro/|go\.getblock\.io/)"
        r"([\w-]{24,64})"
        r"|rpc\.ankr\.com/\w+/([0-9a-f]{64})",
        not_after="",
        check=random_with_digit,
    ),
    # Etherscan and its sister explorers: 34 capitals and digits (docs.etherscan.io, "API keys")
    rule(
        "generic_api_key",
        "etherscan bscscan polygonscan arbiscan basescan snowtrace ftmscan",
        r"([A-Z0-9]{34})(?![A-Za-z0-9])",
        check=random_with_digit,
        near=r"(?s)(?:etherscan|scan)[^\n]{0,40}(?:\n[^\n]*){0,2}",
    ),
    # WalletConnect's symmetric key in a pairing URI (`wc:…@2?relay-protocol=irn&symKey=…`)
    rule("private_key", "symkey", r"(?i)symKey(?:=|%3D)([0-9a-f]{64})" + "(?![0-9a-f])", not_after=""),
    # a keystore's password handed to the call that decrypts it (ethers, web3.js, eth-account)
    rule(
        "generic_password",
        "fromencryptedjson decrypt",
        r"(?i)(?:fromEncryptedJson(?:Sync)?|decryptKeystore(?:Sync)?|accounts\.decrypt|Account\.decrypt"
        r"|decode_keyfile_json)\(\s*[^,()\n]+,\s*b?([\"'])(?P<secret>[^\"'\n]{4,100})\1",
        not_after="",
    ),
    # An Ethereum key handed to the call that makes an account or signs with it: Brownie's
    # `accounts.add("0x…")`, eth-account's `Account.from_key`, viem's `privateKeyToAccount`,
    # ethers' `new Wallet(…)`, web3.py's `sign_transaction(tx, "0x…")` and its signing middleware
    rule(
        "private_key",
        "accounts.add from_key privatekeytoaccount wallet( sign_transaction signandsendrawmiddlewarebuilder",
        r"(?i)(?:accounts\.add|from_key|privatekeytoaccount|wallet|sign_transaction\(\s*[\w.]+\s*,"
        r"|signandsendrawmiddlewarebuilder\.build)\(?\s*[\"'`]" + HEX64 + r"[\"'`]",
        not_after="",
        check=verify.random_enough,
    ),
    # ... or as the fallback for its variable (`process.env.TREASURY_PK || "0x…"`)
    rule(
        "private_key",
        "process.env os.getenv os.environ",
        r"(?i)(?:process\.env\.|os\.(?:getenv|environ\.get)\(\s*[\"'])\w*(?:pk|private_?key|key)[\"']?\s*"
        r"(?:\|\||\?\?|,)\s*[\"'`]" + HEX64 + r"[\"'`]",
        not_after="",
        check=verify.random_enough,
    ),
    # The execution client's and the consensus client's shared JWT secret (Engine API, `jwt.hex`:
    # 32 bytes in hex), in a file's listing, a Secret or a command that writes it
    rule(
        "private_key",
        "jwt.hex jwtsecret jwt-secret jwt_secret",
        r"(?i)jwt(?:\.hex|[_-]?secret)\b[^\n]{0,40}?[:=> \t\n][ \t\"']*" + HEX64,
        not_after="",
        check=verify.random_enough,
    ),
    rule(
        "private_key",
        "jwt.hex jwtsecret",
        r"(?i)echo[ \t]+(?:-n[ \t]+)?[\"']?" + HEX64 + r"[\"']?[ \t]*>+[ \t]*\S*jwt",
        not_after="",
        check=verify.random_enough,
    ),
    # Infura's project id is its key (it is what the URLs above carry)
    rule(
        "generic_api_key",
        "infura_project_id infura-project-id",
        r"(?i)infura[_-]?project[_-]?id[\"']?[ \t]*[:=][ \t]*[\"']?([0-9a-f]{32})(?![0-9a-f])",
        not_after="",
        check=verify.random_enough,
    ),
    # Hardhat's configuration variables file: `"NAME": {"value": "…"}` (hardhat.org, "Configuration
    # variables")
    rule(
        "generic_api_key",
        '"value"',
        r"\"[A-Z][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PK|MNEMONIC)\"\s*:\s*\{\s*"
        r"\"value\"\s*:\s*\"([^\"\n]{8,300})\"",
        not_after="",
        check=lambda value: random_with_digit(value) or verify.random_enough(value.removeprefix("0x")),
    ),
    # The Graph's deploy key: `graph auth --studio <key>` (thegraph.com/docs, "Deploy a subgraph")
    rule("generic_api_key", "graph auth", r"graph auth(?:[ \t]+--\w+)*[ \t]+([0-9a-f]{32})(?![0-9a-f])"),
]
