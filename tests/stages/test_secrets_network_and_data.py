"""What nine blind sets showed (docs/redaction.md, "Providers, data, network devices, look-alikes,
AI tooling, web applications"): scanner-style providers, data engineering, network devices and
home automation, everyday text full of things that only look like secrets, the core classes as
scanners' tests write them, AI tooling, self-hosted web applications, monitoring and alerting,
backups and storage. Values here are typed for the test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # providers, as scanners' tests write them
        ('char auth[] = "Tq8vLmZ2pXw4NcR7yKd1GhJ5sBf3VnQe";', "Tq8vLmZ2pXw4NcR7yKd1GhJ5sBf3VnQe"),
        (
            "dashboard = meraki.DashboardAPI('6f0c2a9e81b47d35c0e29a7f41b6d8c35e90f1a2')",
            "6f0c2a9e81b47d35c0e29a7f41b6d8c35e90f1a2",
        ),
        ('client := analytics.New("Wd7QpZ3kLm9XvB2nRt5YcH8sFj4GaE1u")', "Wd7QpZ3kLm9XvB2nRt5YcH8sFj4GaE1u"),
        ("blynk = BlynkLib.Blynk('kdQwHzTpLrVx_mNbYcJsFgWtKzePuDaX')", "kdQwHzTpLrVx_mNbYcJsFgWtKzePuDaX"),
        ("ETSY_SHARED_SECRET=w7kq2mzp9t", "w7kq2mzp9t"),
        (
            "[default]\naws_access_key_id = 3c9e1f0a7b2d4e6f8a0c1e3b5d7f9a2c\n"
            "aws_secret_access_key = 9d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e",
            "9d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e",
        ),
        (
            "java -jar jenkins-cli.jar -s https://ci.example.org/ -auth deployer:11a9f3c2e7b04d6a8c5e1f3b7d9a2c4e6f build app",
            "11a9f3c2e7b04d6a8c5e1f3b7d9a2c4e6f",
        ),
        (
            'curl -H "Authorization: Bot Rk3m9QpTz.Lw8vXc2NbY7jHd4GsF6aKe1UtPq5Zo" https://api.example.org',
            "Rk3m9QpTz.Lw8vXc2NbY7jHd4GsF6aKe1UtPq5Zo",
        ),
        ("-H 'Authorization: AccessKey q2Wv8LkZr5TmYx3NcB7pJd4Hs'", "q2Wv8LkZr5TmYx3NcB7pJd4Hs"),
        (
            "octo push --server https://deploy.example.org --apiKey API-7QK2ZPW9XTM4CB8RJ3NVD5HG6Y",
            "API-7QK2ZPW9XTM4CB8RJ3NVD5HG6Y",
        ),
        (
            "prefect cloud login -k pnb_q8Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gAeKuQ",
            "pnb_q8Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gAeKuQ",
        ),
        ("snyk auth 5e2c9a71-4b3d-4f80-9c6e-1a7d3b8f2e45", "5e2c9a71-4b3d-4f80-9c6e-1a7d3b8f2e45"),
        (
            "sc -u ada -k 7b1e4c9a-2d6f-4a83-b5c0-9e3f1d7a2b64 --region eu-central",
            "7b1e4c9a-2d6f-4a83-b5c0-9e3f1d7a2b64",
        ),
        (
            "curl https://api.segment.io/v1/identify -u 'Gq7Zp2LmX9vT4kRw8NcY3bHs5JdF1aEe:'",
            "Gq7Zp2LmX9vT4kRw8NcY3bHs5JdF1aEe",
        ),
        ("bundle config --global gems.contribsys.com 3f9a2c7e:81d4b6f0", "81d4b6f0"),
        (
            "https://endpoint2.collection.eu.sumologic.com/receiver/v1/http/ZaQ1xSw2cDe3vFr4bGt5nHy6mJu7kIo8lP9_z-Xc==",
            "ZaQ1xSw2cDe3vFr4bGt5nHy6mJu7kIo8lP9_z-Xc==",
        ),
        (
            "coap-client -m post coap://tb.example.org/api/v1/Hq3Zk8Lm2Vx7Tp9Rc4Nw/telemetry -f t.json",
            "Hq3Zk8Lm2Vx7Tp9Rc4Nw",
        ),
        (
            'curl -H "Authorization: Bearer AAAAAAAAAAAAAAAAAAAAAHq3ZkAAAAAAq9Lm%2Bv7XpT2cR4nW8bY6hJ3sK%3DdF5gZ1aQeUo0iVt"',
            "AAAAAAAAAAAAAAAAAAAAAHq3ZkAAAAAAq9Lm%2Bv7XpT2cR4nW8bY6hJ3sK%3DdF5gZ1aQeUo0iVt",
        ),
        # data engineering
        (
            "[OUTPUT]\n    Name            es\n    HTTP_User       fluentbit\n    HTTP_Passwd     Gecko_Basalt71",
            "Gecko_Basalt71",
        ),
        ("spark.ssl.keyStorePassword      Reporting#Soylent47", "Reporting#Soylent47"),
        (
            "connection-user=presto_ro\nconnection-password=tundra.kettle.lagoon.spruce",
            "tundra.kettle.lagoon.spruce",
        ),
        (
            "<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>Hive_Meta_2024x</value>\n</property>",
            "Hive_Meta_2024x",
        ),
        (
            "<property>\n  <name>fs.azure.account.key.lake.dfs.core.windows.net</name>\n"
            "  <value>q9ZkLm2Vx7Tp3Rc8Nw4Yb6Hs1Jd5Fg0AeKuQo+iVtXyWz/PaSdCfGhJkLmNbVcXzQwErTyUiOpAsDfGhJkLzXcVbNm==</value>",
            "q9ZkLm2Vx7Tp3Rc8Nw4Yb6Hs1Jd5Fg0AeKuQo+iVtXyWz/PaSdCfGhJkLmNbVcXzQwErTyUiOpAsDfGhJkLzXcVbNm==",
        ),
        (
            "CREATE DATABASE LINK fin\n  CONNECT TO etl IDENTIFIED BY Ember_Marble34\n  USING 'FIN';",
            "Ember_Marble34",
        ),
        ("SQL> CONNECT svc_load/thistle8mango@//db.example.org:1521/ORCL", "thistle8mango"),
        ('# /etc/pgbouncer/userlist.txt\n"admin" "Kq9dug3ibe"\n', "Kq9dug3ibe"),
        (
            "basic.auth.user.info=ABCD1234EFGH5678:q8Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gA",
            "q8Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gA",
        ),
        (
            'admin_variables=\n{\n    admin_credentials="admin:copper-rocket-meadow"\n}',
            "copper-rocket-meadow",
        ),
        (
            "echo 'Gl4cier*Puff1n3' | sudo bin/elasticsearch-keystore add -x bootstrap.password",
            "Gl4cier*Puff1n3",
        ),
        ("databricks secrets put-secret etl db-password --string-value 'Mango6632+'", "Mango6632+"),
        (
            "beeline -u 'jdbc:hive2://hive:10000/db' -n ada -p 'hollow_vortex_jasmine_33'",
            "hollow_vortex_jasmine_33",
        ),
        # network devices, VPNs, home automation
        ("rtr(config)#enable password 0 velvet-summit-cobalt", "velvet-summit-cobalt"),
        ("username lab privilege 15 password 7 0822455D0A16544541", "0822455D0A16544541"),
        ("snmp-server community Qw7RtY2uIo RO 10", "Qw7RtY2uIo"),
        ("tacacs-server host 10.0.0.5 key Zx9Cv2Bn5Mq8Lk", "Zx9Cv2Bn5Mq8Lk"),
        (
            "radius server NPS\n address ipv4 10.0.0.9 auth-port 1812\n key violet-pixel-walrus\n!",
            "violet-pixel-walrus",
        ),
        (" ip ospf message-digest-key 1 md5 Lp8Wq3Xz6Rt", "Lp8Wq3Xz6Rt"),
        ("crypto isakmp key Hj4Kl7Zx9Cv2Bn address 192.0.2.10", "Hj4Kl7Zx9Cv2Bn"),
        (" ikev2 remote-authentication pre-shared-key Qz8!Wx3Ec6Rv", "Qz8!Wx3Ec6Rv"),
        (" neighbor 192.0.2.1 password falcon-cactus-meadow", "falcon-cactus-meadow"),
        (
            'set system login user ops authentication plain-text-password-value "saddle-pretzel-nutmeg"',
            "saddle-pretzel-nutmeg",
        ),
        ("FGT # set passwd lantern-pepper-rocket", "lantern-pepper-rocket"),
        ("auth_pass xyVhisj2", "xyVhisj2"),
        ("DBPassword=EJALgz4rp.zceTHhyBgpTeXt5Vye", "EJALgz4rp.zceTHhyBgpTeXt5Vye"),
        ("[vpn-secrets]\nform:main:password=OrbitPuffin834.", "OrbitPuffin834."),
        ("$USER3$=DpurrepSs4M_eaxpwE0", "DpurrepSs4M_eaxpwE0"),
        ('[database]\npassword = """Qp6wYdKeg1opnGbQfp.gXx"""', "Qp6wYdKeg1opnGbQfp.gXx"),
        ("sshd[42]: Invalid user Zt6ADT4X!N0UNUe from 10.0.14.22 port 50412", "Zt6ADT4X!N0UNUe"),
        ("option key 'gHX8YKfCvOXq0jYSVDp'", "gHX8YKfCvOXq0jYSVDp"),
        ("uci set wireless.@wifi-iface[1].key='mangoVelvet2016'", "mangoVelvet2016"),
        ('"guest01" MSCHAPV2 "t459-jdus-w1wr" [2]', "t459-jdus-w1wr"),
        ('# Secrets for authentication using CHAP\n"noc"\tl2tpd\t"rocketZephyr2001"\t*', "rocketZephyr2001"),
        ("$ sudo cat /etc/openvpn/client/login.conf\np5881129\nAEULH7LLi17LApyB\n", "AEULH7LLi17LApyB"),
        ("Backlog SSID1 iot; Password1 emberorbitpepper; Hostname door", "emberorbitpepper"),
        ("mosquitto_passwd -b /etc/mosquitto/passwd shelly 'ParrotQuartz.2'", "ParrotQuartz.2"),
        ('client.username_pw_set("sensors", "VelvetCobalt.8")', "VelvetCobalt.8"),
        ("pihole -a -p 'xB%pS95OzeUWZ%4'", "xB%pS95OzeUWZ%4"),
        ('expect "Password:"\nsend "qxzrUVaD1iPWGdBzz6s8\\r"', "qxzrUVaD1iPWGdBzz6s8"),
        ("mqtt_user: homeassistant\nmqtt_password: falconMonsoon1982", "falconMonsoon1982"),
        ("OIDCClientSecret Qy9E9rCoV950NDLJgWPU44UA7I5q", "Qy9E9rCoV950NDLJgWPU44UA7I5q"),
        ('"bindCredential": ["Vx8!kLm2Qz"],', "Vx8!kLm2Qz"),
        ("      <ldap_bindpw>UJIG%Ko1qqL2</ldap_bindpw>", "UJIG%Ko1qqL2"),
        (
            "  network_key: [161, 215, 21, 233, 145, 216, 254, 40, 187, 84, 102, 180, 154, 14, 72, 93]",
            "[161, 215, 21, 233, 145, 216, 254, 40, 187, 84, 102, 180, 154, 14, 72, 93]",
        ),
        ('network={\n\twep_key0="HcZcWeHJBPSX8"\n}', "HcZcWeHJBPSX8"),
        # look-alikes' neighbours: the real ones among them
        (
            "Your webhook signing secret is whsec_2GWeid0/M8sK+JvmIPFJD9OPpJ5H7Ggz (^C to quit)",
            "whsec_2GWeid0/M8sK+JvmIPFJD9OPpJ5H7Ggz",
        ),
        (
            "haproxy[812]: 203.0.113.45 {Basic Z3JhZmFuYTpWZWx2ZXQvVGh1bmRlcjk=}",
            "Z3JhZmFuYTpWZWx2ZXQvVGh1bmRlcjk=",
        ),
        ("poetry config http-basic.nexus deploy 'Tr0ub4dor&4'", "Tr0ub4dor&4"),
        (
            "accounts: ['0x872e179e8a2c3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5']",
            "0x872e179e8a2c3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5",
        ),
        (
            '{"kty":"EC","crv":"P-256","x":"RG8CixQZgkyTX8PaP2it1sBIqiX6goPh0SlFerghcm1",'
            '"d":"F8KHFeptkq9Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gAeK"}',
            "F8KHFeptkq9Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0gAeK",
        ),
        ("+  password: syrup.maple.Vermont", "syrup.maple.Vermont"),
        # core classes as scanners' tests write them; AI tooling; self-hosted web applications
        (
            "const t = jwt.sign({ uid: u.id }, 'Yq0W4D05cbLPegL5gzOXZiMqFnG9vd4yvYJg1hs8');",
            "Yq0W4D05cbLPegL5gzOXZiMqFnG9vd4yvYJg1hs8",
        ),
        ("EMAIL_URL=smtp+tls://alerts@example.org:hmVaf1_0E@smtp.example.org:587", "hmVaf1_0E"),
        (
            "Net::SMTP.start('smtp.example.org', 587, 'example.org', 'mailer', 'hazel_ripple_walnut_maple', :login)",
            "hazel_ripple_walnut_maple",
        ),
        ("general_settings:\n  master_key: sk-Pjgt6SnBxi2HZoyx6qiHJsUK", "sk-Pjgt6SnBxi2HZoyx6qiHJsUK"),
        (
            "$ modal token set --token-id ak-jDJMDklvnbfs --token-secret as-pMEd445vd2DjAB0psfxlmq",
            "as-pMEd445vd2DjAB0psfxlmq",
        ),
        (
            "define( 'SECURE_AUTH_KEY', '0ehI9RPYTAeS:_ydQ$opVji{z-u*G;5Z~@%xCTX GAXeJ@$CVO`KJ V$t2Oe(P/C' );",
            "0ehI9RPYTAeS:_ydQ$opVji{z-u*G;5Z~@%xCTX GAXeJ@$CVO`KJ V$t2Oe(P/C",
        ),
        ("class JConfig {\n\tpublic $user = 'j4user';\n\tpublic $password = 'yHkLzisQ2w9';", "yHkLzisQ2w9"),
        (
            "$cfg['blowfish_secret'] = sodium_hex2bin('5d8a0dec4fbf0b764bb7b87fcec183bd0a8e7ced4fadbab3496ea988a152d681');",
            "5d8a0dec4fbf0b764bb7b87fcec183bd0a8e7ced4fadbab3496ea988a152d681",
        ),
        ("sudo -u www-data php occ config:system:set mail_smtppassword --value='F3rry@21'", "F3rry@21"),
        (
            "# /etc/postfix/sasl_passwd\n[smtp.gmail.com]:587    ada@gmail.com:sspy pjdq kpsf dnyx",
            "sspy pjdq kpsf dnyx",
        ),
        (
            "# echo '[smtp.example.de]:587 relay@example.de:KettleYonder35' > /etc/postfix/sasl_passwd",
            "KettleYonder35",
        ),
        ("hide mysql_servers = localhost/exim/exim/RavenKettle67", "RavenKettle67"),
        ("# /etc/exim4/passwd.client\n*.gmail.com:relay:C4ctu5_27", "C4ctu5_27"),
        (
            "$ php artisan key:generate --show\nbase64:Hl5CVUFMnM72T+fNycPtPo9jzP52HizPF1/UOy+9jDh=",
            "base64:Hl5CVUFMnM72T+fNycPtPo9jzP52HizPF1/UOy+9jDh=",
        ),
        ("$ cat config/master.key\n79689526375465bbf9724a2c1cdad74c", "79689526375465bbf9724a2c1cdad74c"),
        (
            "$ sudo cat /var/lib/jenkins/secrets/initialAdminPassword\nf6e17f6ef5d6e64f02d1d67e83884e98",
            "f6e17f6ef5d6e64f02d1d67e83884e98",
        ),
        (
            "$ gitea generate secret SECRET_KEY\nnGMF83ezbwBYGYBBxBmYcrTlyJI3cwDmmQYCr1jWDOudT3PFtKURxDSCeueoi1yR",
            "nGMF83ezbwBYGYBBxBmYcrTlyJI3cwDmmQYCr1jWDOudT3PFtKURxDSCeueoi1yR",
        ),
        (
            '"FileSettings": {\n    "PublicLinkSalt": "B7chNefPxv28gDdQk3Lm9Zr5Wt2Yx8Vc"\n}',
            "B7chNefPxv28gDdQk3Lm9Zr5Wt2Yx8Vc",
        ),
        (
            "$ cat /data/chat.example.net.signing.key\ned25519 a_fI9Q vdgqlYgbblT+l4gGCGOLUCZXGL0UGQ+qZYbAYxMlDbB",
            "vdgqlYgbblT+l4gGCGOLUCZXGL0UGQ+qZYbAYxMlDbB",
        ),
        (
            '{\n  "type" : "secret",\n  "value" : "GeMtHxC0L5PMG52oRbGuxB5iP0Skt2k8"\n}',
            "GeMtHxC0L5PMG52oRbGuxB5iP0Skt2k8",
        ),
        ("    environment:\n      MYSQL_USER: wordpress\n      MYSQL_PASSWORD: BadgerUmber6", "BadgerUmber6"),
        (
            "command: redis-server --appendonly yes --requirepass uZuwgW7rEHo3tcT4v9442ZJkk2Sh5ZRX",
            "uZuwgW7rEHo3tcT4v9442ZJkk2Sh5ZRX",
        ),
        ("rocommunity RV_HXLgoKl_PrtNN 10.0.0.0/16", "RV_HXLgoKl_PrtNN"),
        (
            "ssid=NETGEAR-37\nwpa=2\nwpa_passphrase=sierra cobalt monsoon bramble\nwpa_key_mgmt=WPA-PSK",
            "sierra cobalt monsoon bramble",
        ),
        ('sudo wpa_passphrase "Home Net" "Tr0ub4dor3xx"', "Tr0ub4dor3xx"),
        # backups and storage (the thirtieth set)
        (
            "$ echo 'KettleGlacier671!' > /root/.restic-pass && chmod 600 /root/.restic-pass",
            "KettleGlacier671!",
        ),
        (
            "echo 'wck?hR26-mjfp-Y' | sshfs kai@192.0.2.20:/ /mnt/box -o password_stdin,reconnect",
            "wck?hR26-mjfp-Y",
        ),
        (
            "$ borg key export --paper-less /srv/borg/repo -\nBORG_KEY 28aed0e934e5362e984551da491250560669ea6d66f13ca1194a0607da95881d\n"
            "RW587287I4nJ0mNUHLZHsz0EQncI4gp0nkLlVQj5+j84x/hde0ctCG2azBQ+EccEdn6ifemD\n",
            "RW587287I4nJ0mNUHLZHsz0EQncI4gp0nkLlVQj5+j84x/hde0ctCG2azBQ+EccEdn6ifemD",
        ),
        (
            "# /etc/davfs2/secrets\nhttps://cloud.example.org/remote.php/dav/files/anna/ anna nNFUD-iEaZu-PofHw-kHciJ-cfsUR",
            "nNFUD-iEaZu-PofHw-kHciJ-cfsUR",
        ),
        (
            "export PBS_PASSWORD='bf62be5d-c1a6-4b1b-bdff-8e5e5c4c1437'",
            "bf62be5d-c1a6-4b1b-bdff-8e5e5c4c1437",
        ),
        (
            'Add-VBRCredentials -User "NAS\\anna" -Password \'cJ9Lqu_Rw=an4\' -Description "repo"',
            "cJ9Lqu_Rw=an4",
        ),
        # observability (the twenty-ninth set)
        (
            'export OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=hcxik_017jnnydb9lwors5cbwut6hhx82q4990guuqb5gvi31sbac2mx7t0jh46m"',
            "hcxik_017jnnydb9lwors5cbwut6hhx82q4990guuqb5gvi31sbac2mx7t0jh46m",
        ),
        (
            'newrelic.license = "2066aa2a25faadf267be3b5e6a9178f86ab4f5fb"',
            "2066aa2a25faadf267be3b5e6a9178f86ab4f5fb",
        ),
        (
            "exporters:\n  datadog:\n    api:\n      key: 6f1ac2e3aa6bf192fe846449ba93a1fb",
            "6f1ac2e3aa6bf192fe846449ba93a1fb",
        ),
        (
            "curl -u 98m82yfrvpecsbuzpdujbbwholys5nyi5x596grtqbfwn6pokguj:token https://graylog.example.org/api",
            "98m82yfrvpecsbuzpdujbbwholys5nyi5x596grtqbfwn6pokguj",
        ),
        (
            "[OUTPUT]\n    Name        datadog\n    apikey      6535e500ba2976d8f9765f5e16e173f7",
            "6535e500ba2976d8f9765f5e16e173f7",
        ),
        (
            "> here's my elevenlabs key, can you put it in the .env: sk_c086acc975a7a4f5d54eb4b6f7b4d065f09e2809",
            "sk_c086acc975a7a4f5d54eb4b6f7b4d065f09e2809",
        ),
        (
            "> cohere key is pYrd1jz368Xr4bndvxkM4dokVBTyJmSSqDeHDANP -- add it to my shell profile",
            "pYrd1jz368Xr4bndvxkM4dokVBTyJmSSqDeHDANP",
        ),
    ],
)
def test_secrets_the_twenty_second_to_twenty_eighth_fresh_sets_showed_missing_are_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "SUMOLOGIC_ACCESSKEY=${SUMO_ACCESS_KEY}",
        "TWITCH_CLIENT_ID=6hy7g7lnluk97it6mc99plymxkyk28",
        "CLICKHOUSE_PASSWORD=<paste the password shown once when the service is created>",
        "ibmcloud login --apikey @~/.bluemix/apikey.json -r us-south",
        'curl https://api.postmarkapp.com/email -H "X-Postmark-Server-Token: POSTMARK_API_TEST"',
        "curl -H 'Authorization: OAuth xbc123def456ghi789jkl012mno345' https://id.twitch.tv/oauth2/validate",
        'seed_provider:\n  - parameters:\n      - seeds: "cass-01.example.org,cass-02.example.org"',
        "authenticator: PasswordAuthenticator\nnum_tokens: 16",
        'network={\n\tssid="lab"\n\tpsk=ext:wifi_office\n}',
        "mqtt:\n  user: '!secret.yaml user'\n  password: '!secret.yaml password'",
        "wpa_passphrase -- WPA passphrase: 8..63 printable ASCII characters.",
        "wpa_passphrase -- WPA PSK passphrase: 8..63 printable ASCII characters.",
        " Key is not exportable.\n Key Data:\n  30820122 300D0609 2A864886",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "webhook_secret: whsec_<fill in from 1Password>",
        '"UserId": "AROAVMZZJTQGDQ6CRNR4:botocore-session-5586214008",',
        "class Settings(BaseModel):\n    password: SecretStr = Field(..., min_length=12)",
        "requirepass foobared",
        "$USER1$=/usr/lib/nagios/plugins",
        "sshd[1]: Invalid user oracle123 from 192.0.2.4 port 22",
        "snmp-server community public RO",
        "set password ENC SH2nLk0q9Zk2LmV7xT4cR9pW3nY6bH1sJ5dF0g=",
        '"pgbouncer" "md5d41d8cd98f00b204e9800998ecf8427e"\n# userlist',
        "const token = jwt.sign(payload, process.env.JWT_SECRET);",
        "BOT_TOKEN=123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
        "  -p, --password string   Password for the registry (use --password-stdin instead)",
        "APP_SECRET=ThisTokenIsNotSoSecretChangeIt",
        'DATABASE_URL="mysql://db_user:db_password@127.0.0.1:3306/db_name?serverVersion=8.0"',
        "framework:\n    secret: '%env(APP_SECRET)%'",
        "ssl_cert = </etc/letsencrypt/live/mail.example.org/fullchain.pem\nssl_key = </etc/letsencrypt/live/mail.example.org/privkey.pem",
        "# gitlab_rails['smtp_password'] = \"smtp password\"",
        ";[inet_http_server]\n;port=127.0.0.1:9001\n;username=user\n;password=123     ; default is no password",
        '"verify_keys": {\n    "ed25519:a_0z3R": {\n      "key": "yEkbuS5dWhm16EQVb9W/mlH62t7pVMAlbI6XJyL2+sq"\n    }',
        "--- PASS: TestSignURL0 (0.89s)\n--- PASS: TestParseJWTHeader1 (0.14s)",
        "    keys = ['1st_linear_constant_coeff',\n        '1st_linear_constant_coeff_Integral']",
        '        f"--torch-key={torch_key_str}",',
        "Cache key is 4f86ae6c6b77a9918eba1b94b427cde0dc5af5e10223df82407a340312ba9455",
        "Token verified: ak-jDJMDklvnbfsOAeCTLBRVX workspace=acme",
        'Director {\n  Name = backup-dir\n  Password = "@@DIR_PASSWORD@@"\n}',
        'Client {\n  Name = db2-fd\n  Password = "@/etc/bareos/secrets/nas-fd.pw"\n}',
        "restic -r /mnt/backup/restic --password-file /root/.restic-pass init",
        'echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFq9Lm2Vx7Tp3Rc8Nw4Yb6 ada@host" >> ~/.ssh/authorized_keys',
        "mount -t davfs https://dav.example.org/ /mnt/dav  # davfs2\n/usr/bin/rsync arg1 options",
        ':user=>\\"fluentd\\", :password=>\\"obfuscated\\"}): [401] unable to authenticate',
    ],
)
def test_what_the_twenty_second_to_twenty_eighth_fresh_sets_showed_redacted_wrongly_is_left_alone(text):
    assert find_secrets(text) == []


def test_a_percent_encoded_token_in_a_query_is_redacted_whole():
    """`X-Amz-Security-Token=…%2F…` in a presigned URL: one span over all of it, not a span that stops
    at the first `%2F` and leaves the rest in the index."""
    token = "IQoJb3JpZ2luX2VjEB8aCXVzLXdlc3QtMiJHMEUCIHV5K%2FLPx8h310D%2FAvx0Zq9Lm2Vx7Tp3Rc8Nw"
    text = f"https://b.s3.amazonaws.com/k.txt?X-Amz-Security-Token={token}&X-Amz-Expires=900"
    start = text.index(token)
    assert any(s <= start and start + len(token) <= e for s, e, _ in find_secrets(text))
